import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Empty, Input, Modal, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import {
  ArrowDownOutlined,
  CheckOutlined,
  ClockCircleOutlined,
  ExclamationCircleOutlined,
  PauseCircleFilled,
  PlayCircleFilled,
  RobotOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { API_URL } from '../../../constants';
import { http } from '../../../providers/http';
import { notify } from '../../../providers/notification';
import type { VigiaHttpError } from '../../../providers/errors';
import { readSession } from '../../../session';
import { can, isRole, PATIENT_STATUS } from '@vigia/contract/rules/access';
import type { Schemas } from '../../../contract';
import {
  CHAT_PAGE_SIZE,
  CHAT_TEXTS,
  LOAD_OLDER_WITHIN_PX,
  chatSubtitle,
  dayLabel,
  estimatedSeconds,
  formatDuration,
  mergeMessages,
  shortFilename,
  timeOfDay,
} from '@vigia/contract/rules/chat';
import type { PatientTabProps } from '../types';
import './ChatTab.css';

type ChatMessage = Schemas['ChatMessage'];
type ChatPage = Schemas['ChatMessagePage'];
const POLL_MS = 5000;

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

function Bubble({
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

/** Tab 'Chat' of the patient page: the messaging conversation with the patient (01 §2). */
export default function ChatTab({ patient, active }: PatientTabProps) {
  const timeZone = patient.time_zone || 'America/Bogota';
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [total, setTotal] = useState(0);
  const [nextPage, setNextPage] = useState<number | null>(1);
  const [loading, setLoading] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [welcoming, setWelcoming] = useState(false);
  const [viewer, setViewer] = useState<string | null>(null);
  const [atBottom, setAtBottom] = useState(true);
  const listRef = useRef<HTMLDivElement>(null);
  // Where to put the scroll after a render: the bottom, or the same messages after older ones were added.
  const anchor = useRef<{ kind: 'bottom' } | { kind: 'keep'; height: number; top: number } | null>(null);
  const busy = useRef(false);
  // True while the reader is at the end of the conversation: images that finish loading keep it there.
  const stick = useRef(true);

  const role = readSession()?.role_name;
  const canWrite = isRole(role) && can(role, 'clinical.write') && patient.status !== PATIENT_STATUS.deceased;

  const fetchPage = useCallback(
    async (page: number) => {
      const res = await http.get<ChatPage>(`${API_URL}/patients/${patient.id}/messages`, { params: { page, per_page: CHAT_PAGE_SIZE } });
      return res.data;
    },
    [patient.id],
  );

  /** Page 1 again: new messages and status changes, without losing the older pages already shown. */
  const refreshLatest = useCallback(
    async (scrollToEnd: boolean) => {
      try {
        const data = await fetchPage(1);
        const el = listRef.current;
        const nearBottom = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        setMessages((prev) => {
          const merged = mergeMessages(prev, data.messages);
          if ((scrollToEnd || nearBottom) && merged.length !== prev.length) anchor.current = { kind: 'bottom' };
          return merged;
        });
        setTotal(data.total_count);
        setError(null);
      } catch (err) {
        setError((err as VigiaHttpError).message);
      }
    },
    [fetchPage],
  );

  const loadOlder = useCallback(async () => {
    if (busy.current || nextPage == null) return;
    busy.current = true;
    setLoading(true);
    try {
      const data = await fetchPage(nextPage);
      const el = listRef.current;
      anchor.current = nextPage === 1 || !el ? { kind: 'bottom' } : { kind: 'keep', height: el.scrollHeight, top: el.scrollTop };
      setMessages((prev) => mergeMessages(prev, data.messages));
      setTotal(data.total_count);
      setNextPage(data.has_next ? nextPage + 1 : null);
      setError(null);
    } catch (err) {
      setError((err as VigiaHttpError).message);
    } finally {
      busy.current = false;
      setLoading(false);
      setLoaded(true);
    }
  }, [fetchPage, nextPage]);

  // Every time the tab becomes visible: start again from the latest page (01 §2).
  useEffect(() => {
    if (!active) return;
    setMessages([]);
    setNextPage(1);
    setLoaded(false);
  }, [active, patient.id]);

  useEffect(() => {
    if (active && nextPage === 1 && !loaded && !busy.current) void loadOlder();
  }, [active, nextPage, loaded, loadOlder]);

  useEffect(() => {
    if (!active || !loaded) return;
    const timer = setInterval(() => void refreshLatest(false), POLL_MS);
    return () => clearInterval(timer);
  }, [active, loaded, refreshLatest]);

  useLayoutEffect(() => {
    const el = listRef.current;
    const a = anchor.current;
    if (!el || !a) return;
    anchor.current = null;
    if (a.kind === 'bottom') {
      el.scrollTop = el.scrollHeight;
      stick.current = true;
    } else el.scrollTop = a.top + (el.scrollHeight - a.height);
    // A short list cannot be scrolled: keep loading older pages while the top is within reach.
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX && nextPage != null && loaded) void loadOlder();
  }, [messages, nextPage, loaded, loadOlder]);

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    setAtBottom(bottom);
    stick.current = bottom;
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX && nextPage != null) void loadOlder();
  };

  const onMediaLoad = () => {
    const el = listRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  };

  const scrollToBottom = () => {
    const el = listRef.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
  };

  const sendWelcome = async () => {
    setWelcoming(true);
    try {
      const res = await http.post<{ notification: { message: string } }>(`${API_URL}/patients/${patient.id}/welcome`);
      notify.success(res.data.notification?.message || CHAT_TEXTS.welcomeSent);
      await refreshLatest(true);
    } catch (err) {
      notify.error((err as VigiaHttpError).message || CHAT_TEXTS.welcomeFailed);
    } finally {
      setWelcoming(false);
    }
  };

  const send = async () => {
    const body = text.trim();
    if (!body) return;
    setSending(true);
    try {
      const res = await http.post<ChatMessage>(`${API_URL}/patients/${patient.id}/messages`, { text: body });
      setText('');
      anchor.current = { kind: 'bottom' };
      setMessages((prev) => mergeMessages(prev, [res.data]));
      setTotal((n) => n + 1);
    } catch (err) {
      notify.error((err as VigiaHttpError).message);
    } finally {
      setSending(false);
    }
  };

  const now = new Date();
  const last = messages.length ? new Date(messages[messages.length - 1].created_at) : null;
  const empty = loaded && total === 0 && messages.length === 0;

  return (
    <Card
      className="chat-card"
      title={
        <div className="chat-heading">
          <Typography.Title level={5} className="chat-title">
            {CHAT_TEXTS.title}
          </Typography.Title>
          <Typography.Text type="secondary" className="chat-subtitle">
            {chatSubtitle(last, now, timeZone)}
          </Typography.Text>
        </div>
      }
      extra={
        empty && (
          <Button type="primary" onClick={sendWelcome} loading={welcoming} disabled={!canWrite}>
            {CHAT_TEXTS.sendWelcome}
          </Button>
        )
      }
    >
      {error && <Alert type="error" showIcon message={error} className="chat-alert" />}
      <div className="chat-frame">
        <div className="chat-list" ref={listRef} onScroll={onScroll} data-testid="chat-list" aria-live="polite">
          {loading && (
            <div className="chat-loading">
              <Spin size="small" />
            </div>
          )}
          {empty && <Empty description={CHAT_TEXTS.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />}
          {messages.map((m, i) => {
            const label = dayLabel(new Date(m.created_at), now, timeZone);
            const previous = i > 0 ? dayLabel(new Date(messages[i - 1].created_at), now, timeZone) : null;
            return (
              <Fragment key={m.id}>
                {label !== previous && (
                  <div className="chat-day">
                    <span>{label}</span>
                  </div>
                )}
                <Bubble m={m} timeZone={timeZone} onImage={setViewer} onMediaLoad={onMediaLoad} />
              </Fragment>
            );
          })}
        </div>
        {!atBottom && (
          <Button
            className="chat-to-bottom"
            shape="circle"
            icon={<ArrowDownOutlined />}
            onClick={scrollToBottom}
            aria-label="Ir al último mensaje"
          />
        )}
      </div>
      <Space.Compact className="chat-composer">
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={4096}
          placeholder={canWrite ? 'Escriba un mensaje para el paciente' : 'No puede enviar mensajes a este paciente'}
          disabled={!canWrite || sending}
          aria-label="Mensaje para el paciente"
        />
        <Button type="primary" icon={<SendOutlined />} onClick={send} loading={sending} disabled={!canWrite || !text.trim()}>
          Enviar
        </Button>
      </Space.Compact>
      <Modal open={viewer != null} onCancel={() => setViewer(null)} footer={null} title="Imagen" width={720} centered destroyOnHidden>
        {viewer && <img src={viewer} alt="Imagen enviada por el paciente" className="chat-viewer-image" />}
      </Modal>
    </Card>
  );
}
