import { Fragment, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Empty, Input, Modal, Space, Spin, Typography } from 'antd';
import { ArrowDownOutlined, SendOutlined } from '@ant-design/icons';
import { readSession } from '../../../session';
import { can, isRole, PATIENT_STATUS } from '@vigia/contract/rules/access';
import type { Schemas } from '../../../contract';
import { CHAT_PAGE_SIZE, CHAT_TEXTS, LOAD_OLDER_WITHIN_PX, chatSubtitle, dayLabel, mergeMessages } from '@vigia/contract/rules/chat';
import type { PatientTabProps } from '../types';
import { useApiMutation, useApiQuery } from '../../../providers/calls';
import { serverError } from '../../../providers/notices';
import { Bubble } from './ChatBubble';
import './ChatTab.css';
import { SectionTitle } from '../../../components/SectionTitle';
import { ReadFailedAlert, useReadState } from '../../../ui/ReadState';

type ChatMessage = Schemas['ChatMessage'];
type ChatPage = Schemas['ChatMessagePage'];
const POLL_MS = 5000;

/**
 * Where to put the scroll after the next render: the bottom; the bottom if the reader was there;
 * or the same messages in view after older ones were added above them.
 */
type Anchor = 'bottom' | 'bottom-if-near' | 'keep' | null;

/** Tab 'Chat' of the patient page: the messaging conversation with the patient (01 §2). */
export default function ChatTab({ patient, active }: PatientTabProps) {
  const timeZone = patient.time_zone || 'America/Bogota';
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [total, setTotal] = useState(0);
  const [nextPage, setNextPage] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [text, setText] = useState('');
  const [viewer, setViewer] = useState<string | null>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [anchor, setAnchor] = useState<Anchor>(null);
  // After the welcome message: the next answer of the latest page scrolls to the end.
  const [toEnd, setToEnd] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  // The list's height and scroll at the last render or scroll: 'keep' moves by what was added above.
  const snapshot = useRef({ height: 0, top: 0 });
  // True while the reader is at the end of the conversation: images that finish loading keep it there.
  const stick = useRef(true);

  const role = readSession()?.role_name;
  const canWrite = isRole(role) && can(role, 'clinical.write') && patient.status !== PATIENT_STATUS.deceased;

  // Page 1 while the tab is visible, again every POLL_MS once shown: new messages and status
  // changes, merged without losing the older pages already shown. Failures show in the card.
  const latest = useApiQuery('/patients/{id}/messages', {
    params: { id: patient.id },
    query: { page: 1, per_page: CHAT_PAGE_SIZE },
    queryOptions: { enabled: active, refetchInterval: active && loaded ? POLL_MS : false, gcTime: 0 },
    errorNotification: false,
  });
  // An older page, read when the reader reaches the top.
  const [older, setOlder] = useState<number | null>(null);
  const olderRead = useApiQuery('/patients/{id}/messages', {
    params: { id: patient.id },
    query: { page: older ?? 0, per_page: CHAT_PAGE_SIZE },
    queryOptions: { enabled: active && older !== null, gcTime: 0 },
    errorNotification: false,
  });
  const [olderError, setOlderError] = useState<string | null>(null);

  // Every time the tab becomes visible: start again from the latest page (01 §2).
  const [shown, setShown] = useState<{ active: boolean; patient: number; latest?: ChatPage }>({ active: false, patient: patient.id });
  if (active && (!shown.active || shown.patient !== patient.id)) {
    setShown({ active, patient: patient.id });
    setMessages([]);
    setNextPage(null);
    setOlder(null);
    setLoaded(false);
  } else if (!active && shown.active) setShown({ ...shown, active });

  // A new answer of the latest page joins the conversation.
  const latestPage = latest.query.data?.data;
  if (active && shown.active && latestPage && latestPage !== shown.latest && !latest.query.isFetching) {
    setShown({ ...shown, latest: latestPage });
    const merged = mergeMessages(messages, latestPage.messages);
    if (shown.latest === undefined) {
      setAnchor('bottom');
      setNextPage(latestPage.has_next ? 2 : null);
      setLoaded(true);
    } else if (merged.length !== messages.length) setAnchor(toEnd ? 'bottom' : 'bottom-if-near');
    setToEnd(false);
    setMessages(merged);
    setTotal(latestPage.total_count);
    setOlderError(null);
  }

  // A failed first read still ends the loading (the card shows the error) and starts the polling.
  if (active && shown.active && !loaded && latest.query.isError && !latest.query.isFetching) setLoaded(true);

  // An older page's answer goes above what is shown, which stays in view.
  const olderPage = olderRead.query.data?.data;
  if (older !== null && olderPage && !olderRead.query.isFetching) {
    setMessages(mergeMessages(messages, olderPage.messages));
    setTotal(olderPage.total_count);
    setNextPage(olderPage.has_next ? older + 1 : null);
    setAnchor('keep');
    setOlder(null);
    setOlderError(null);
  } else if (older !== null && olderRead.query.isError && !olderRead.query.isFetching) {
    setOlderError(olderRead.query.error.message);
    setOlder(null);
  }

  const loading = (active && !loaded) || older !== null;

  const loadOlder = () => {
    if (older !== null || nextPage == null || !loaded) return;
    setOlder(nextPage);
  };
  // A short list cannot be scrolled: keep loading older pages while the top is within reach.
  const loadOlderIfTop = useEffectEvent((el: HTMLDivElement) => {
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX && nextPage != null && loaded) loadOlder();
  });

  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const before = snapshot.current;
    if (anchor === 'bottom' || (anchor === 'bottom-if-near' && before.height - before.top - el.clientHeight < 40)) {
      el.scrollTop = el.scrollHeight;
      stick.current = true;
    } else if (anchor === 'keep') el.scrollTop = before.top + (el.scrollHeight - before.height);
    snapshot.current = { height: el.scrollHeight, top: el.scrollTop };
    if (anchor) {
      setAnchor(null);
      loadOlderIfTop(el);
    }
  }, [messages, anchor]);

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    setAtBottom(bottom);
    stick.current = bottom;
    snapshot.current = { height: el.scrollHeight, top: el.scrollTop };
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX && nextPage != null) loadOlder();
  };

  const onMediaLoad = () => {
    const el = listRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
    if (el) snapshot.current = { height: el.scrollHeight, top: el.scrollTop };
  };

  const scrollToBottom = () => {
    const el = listRef.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
  };

  // The API says whether an assistant answers patients (sme_metadata.assistant, AI_BASE_URL set).
  const smeRead = useApiQuery('/patients/{id}/sme_info', {
    params: { id: patient.id },
    queryOptions: { enabled: active },
    errorNotification: false,
  });
  const assistantOff = smeRead.query.data?.data.sme_metadata.assistant === false;

  const { mutate: post, mutation: welcomeMutation } = useApiMutation();
  const welcoming = welcomeMutation.isPending;
  const sendWelcome = () =>
    post(
      {
        method: 'post',
        path: '/patients/{id}/welcome',
        params: { id: patient.id },
        successNotification: (res) => ({ type: 'success', message: res?.data.notification?.message || CHAT_TEXTS.welcomeSent }),
        errorNotification: serverError(CHAT_TEXTS.welcomeFailed),
      },
      {
        onSuccess: () => {
          setToEnd(true);
          void latest.query.refetch();
        },
      },
    );

  const { mutate: postMessage, mutation: sendMutation } = useApiMutation();
  const sending = sendMutation.isPending;
  const send = () => {
    const body = text.trim();
    if (!body) return;
    postMessage(
      {
        method: 'post',
        path: '/patients/{id}/messages',
        params: { id: patient.id },
        values: { text: body },
        errorNotification: serverError('No fue posible enviar el mensaje'),
      },
      {
        onSuccess: ({ data }) => {
          setText('');
          setAnchor('bottom');
          setMessages((prev) => mergeMessages(prev, [data]));
          setTotal((n) => n + 1);
        },
      },
    );
  };

  const now = new Date();
  const last = messages.length ? new Date(messages[messages.length - 1].created_at) : null;
  // A failed read of the latest page is never 'No hay mensajes aún' (P212): said in place, with 'Reintentar'.
  const readStatus = useReadState([latest.query], total === 0 && messages.length === 0, 'los mensajes');
  const empty = loaded && total === 0 && messages.length === 0 && readStatus.phase === 'empty';
  const failed = readStatus.phase === 'failed';

  return (
    <Card
      className="chat-card"
      title={
        <div className="chat-heading">
          <SectionTitle className="chat-title">{CHAT_TEXTS.title}</SectionTitle>
          {!failed && (
            <Typography.Text type="secondary" className="chat-subtitle">
              {chatSubtitle(last, now, timeZone)}
            </Typography.Text>
          )}
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
      <ReadFailedAlert status={readStatus} />
      {olderError && <Alert type="error" showIcon message={olderError} className="chat-alert" />}
      {assistantOff && (
        <Alert
          type="warning"
          showIcon
          className="chat-alert"
          message="El asistente IA está desactivado"
          description="Nadie responde automáticamente: los mensajes del paciente esperan la respuesta del personal en este chat."
        />
      )}
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
              send();
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
