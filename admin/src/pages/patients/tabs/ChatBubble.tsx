/** One message of the chat (01 §2): text, image, audio with its transcription, and its delivery state. */
import { useRef, useState } from 'react';
import { Button, Tag, Tooltip, Typography } from 'antd';
import {
  CheckOutlined,
  ClockCircleOutlined,
  ExclamationCircleOutlined,
  PauseCircleFilled,
  PlayCircleFilled,
  RobotOutlined,
} from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { estimatedSeconds, formatDuration, shortFilename, timeOfDay } from '@vigia/contract/rules/chat';

type ChatMessage = Schemas['ChatMessage'];

/** One audio plays at a time across the chat (01 §2). */
let playing: HTMLAudioElement | null = null;

function AudioMessage({ audio }: { audio: NonNullable<ChatMessage['attachments']['audio']> }) {
  const ref = useRef<HTMLAudioElement>(null);
  const [isPlaying, setPlaying] = useState(false);
  const toggle = async () => {
    const el = ref.current;
    if (!el) return;
    if (isPlaying) {
      el.pause();
      return;
    }
    if (playing && playing !== el) playing.pause();
    playing = el;
    try {
      await el.play();
    } catch (err) {
      console.error('No se pudo reproducir el audio', err);
      setPlaying(false);
    }
  };
  return (
    <div className="chat-audio">
      <Button
        type="text"
        shape="circle"
        aria-label={isPlaying ? 'Pausar audio' : 'Reproducir audio'}
        icon={isPlaying ? <PauseCircleFilled /> : <PlayCircleFilled />}
        onClick={toggle}
        disabled={!audio.url}
        className="chat-audio-button"
      />
      <div className="chat-audio-meta">
        <Tooltip title={audio.filename ?? 'audio'}>
          <span className="chat-audio-name">{shortFilename(audio.filename ?? 'audio')}</span>
        </Tooltip>
        <Typography.Text type="secondary" className="chat-audio-duration">
          {formatDuration(estimatedSeconds(audio.byte_size ?? 0))}
        </Typography.Text>
      </div>
      {audio.url && (
        <audio
          ref={ref}
          src={audio.url}
          preload="none"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={(e) => {
            e.currentTarget.currentTime = 0;
            setPlaying(false);
          }}
        />
      )}
      {audio.transcription && <div className="chat-transcription">«{audio.transcription}»</div>}
    </div>
  );
}

function DeliveryState({ m }: { m: ChatMessage }) {
  if (m.message_type !== 'outgoing') return null;
  if (m.status === 'failed')
    return (
      <span className="chat-state chat-state-failed">
        <ExclamationCircleOutlined /> No enviado
      </span>
    );
  if (m.status === 'queued')
    return (
      <span className="chat-state">
        <ClockCircleOutlined /> Enviando
      </span>
    );
  const double = m.status === 'delivered' || m.status === 'read';
  return (
    <span
      className={`chat-state${m.status === 'read' ? ' chat-state-read' : ''}`}
      aria-label={{ sent: 'Enviado', delivered: 'Entregado', read: 'Leído' }[m.status as 'sent']}
    >
      <CheckOutlined />
      {double && <CheckOutlined className="chat-second-check" />}
    </span>
  );
}

export function Bubble({
  m,
  timeZone,
  onImage,
  onMediaLoad,
}: {
  m: ChatMessage;
  timeZone: string;
  onImage: (url: string) => void;
  onMediaLoad: () => void;
}) {
  const image = m.attachments.image;
  const audio = m.attachments.audio;
  const author =
    m.message_type === 'incoming' ? null : m.ai ? 'Asistente IA' : (m.author_name ?? (m.author_human ? 'Personal' : 'Mensaje automático'));
  return (
    <div className={`chat-row chat-row-${m.message_type}`}>
      <div
        className={`chat-bubble chat-bubble-${m.message_type}${m.status === 'failed' ? ' chat-bubble-failed' : ''}`}
        data-testid="chat-message"
      >
        {(author || m.ai) && (
          <div className="chat-author">
            {m.ai && (
              <Tag color="purple" icon={<RobotOutlined />} className="chat-ai-tag">
                IA
              </Tag>
            )}
            {author && <span>{author}</span>}
          </div>
        )}
        {image?.url && (
          <button type="button" className="chat-image" onClick={() => onImage(image.url!)} aria-label="Ver imagen">
            <img src={image.thumbnail ?? image.url} alt="Imagen enviada por el paciente" onLoad={onMediaLoad} />
          </button>
        )}
        {audio && <AudioMessage audio={audio} />}
        {m.custom_message && <div className="chat-text">{m.custom_message}</div>}
        {m.status === 'failed' && m.error && <div className="chat-error">{m.error}</div>}
        {m.status === 'queued' && m.error && <div className="chat-error chat-error-retry">{m.error}</div>}
        <div className="chat-meta">
          <span>{timeOfDay(new Date(m.created_at), timeZone)}</span>
          <DeliveryState m={m} />
        </div>
      </div>
    </div>
  );
}
