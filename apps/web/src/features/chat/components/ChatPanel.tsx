import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  CloseButton,
  Drawer,
  FileButton,
  Group,
  Image,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCheck, IconChecks, IconFileTypePdf, IconPaperclip, IconPhoto, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ChatAttachment, ChatMessage, Conversation } from '@masar/shared';
import { asLang, formatDate, formatNumber, type Lang } from '../../../components/format';
import { Slot } from '../../../components/slots';
import { CallLine, callLineText } from './CallLine';
import {
  CHAT_ATTACHMENT_ACCEPT,
  CHAT_ATTACHMENT_MAX_MB,
  checkChatAttachment,
  downloadAttachment,
  newMessageKey,
  useAttachmentImage,
  useConversation,
  useConversations,
  useMarkChatRead,
  useMessages,
  useSendMessage,
  useUploadChatAttachment,
} from '../api/chat';
import { useTyping } from '../hooks/useTyping';
import { usePresence } from '../hooks/usePresence';
import { PresenceLine } from './PresenceLine';
import { QuickReplies } from './QuickReplies';
import { closeChat, openChat, showChatList, useChatPanel } from '../store';

/** A size in the reader's digits: "1.2 MB", "340 KB". */
export const sizeLabel = (bytes: number, lang: 'en' | 'ar', t: TFunction<'chat'>) =>
  bytes >= 1024 * 1024
    ? t('sizeMb', { size: formatNumber(bytes / 1024 / 1024, lang, 1) })
    : t('sizeKb', { size: formatNumber(Math.max(1, Math.round(bytes / 1024)), lang) });

/** "99+" past 99, in the reader's digits. */
export const unreadLabel = (n: number, lang: 'en' | 'ar') => (n > 99 ? `${formatNumber(99, lang)}+` : formatNumber(n, lang));

/**
 * The chat panel (issue 21 "Chat"): a drawer on the inline end with my conversations (unread
 * badges) or one thread (messages oldest first, composer — Enter sends, Shift+Enter a new line —
 * and read ticks on my messages). New messages arrive live: the real-time bridge re-reads the
 * 'chat' queries on every conversation event. The thread shows "<company> is typing…" from the
 * conversation's typing topic and signals my typing there (useTyping); its title says whether the
 * other side is online or when it was last seen (usePresence, PresenceLine).
 */
export default function ChatPanel() {
  const { t, i18n } = useTranslation('chat');
  const { opened, conversationId } = useChatPanel();
  const rtl = i18n.dir?.() === 'rtl';
  return (
    <Drawer
      opened={opened}
      onClose={closeChat}
      // Mantine swaps left and right under an RTL direction: 'right' is the inline end either way
      position="right"
      size="md"
      title={
        conversationId ? (
          <Group gap="xs" wrap="nowrap">
            <ActionIcon variant="subtle" onClick={showChatList} aria-label={t('back')} data-testid="chat-back">
              {rtl ? <IconArrowRight size={18} /> : <IconArrowLeft size={18} />}
            </ActionIcon>
            <ThreadTitle id={conversationId} />
          </Group>
        ) : (
          t('title')
        )
      }
      data-testid="chat-panel"
    >
      {opened && (conversationId ? <Thread key={conversationId} id={conversationId} /> : <ConversationList />)}
    </Drawer>
  );
}

function ThreadTitle({ id }: { id: string }) {
  const c = useConversation(id);
  const presence = usePresence(id, c.data?.side, c.data?.otherSide);
  if (!c.data) return null;
  return (
    <>
      <Stack gap={0}>
        <Text fw={600} lh={1.2}>
          <bdi>{c.data.counterpart.companyName}</bdi>
        </Text>
        <Text fz="xs" c="dimmed">
          <bdi>{c.data.referenceId}</bdi>
        </Text>
        <PresenceLine presence={presence} />
      </Stack>
      {/* audio and video calls with the other side (issue 21 "Calls"; the calls feature) */}
      <Slot
        name="CallButtons"
        conversationId={id}
        loadId={c.data.loadId}
        counterpartId={c.data.counterpart.userId}
        counterpartName={c.data.counterpart.companyName}
      />
    </>
  );
}

function ConversationList() {
  const { t, i18n } = useTranslation('chat');
  const lang = asLang(i18n.language);
  const q = useConversations(true);
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  if (q.isLoading)
    return (
      <Center p="md">
        <Loader size="sm" />
      </Center>
    );
  if (!items.length)
    return (
      <Text c="dimmed" ta="center" p="md" data-testid="chat-empty">
        {t('empty')}
      </Text>
    );
  return (
    <Stack gap={4}>
      {items.map((c) => (
        <ConversationRow key={c.id} c={c} lang={lang} />
      ))}
      {q.hasNextPage && (
        <Button variant="subtle" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
          {t('more')}
        </Button>
      )}
    </Stack>
  );
}

/** A message's text for the list, or its attachment's name when it has no text. */
const preview = (m: ChatMessage, t: TFunction<'chat'>, lang: Lang) =>
  m.call ? callLineText(m.call, m.mine, t, lang) : m.body || (m.attachment ? t('attachmentPreview', { name: m.attachment.name ?? '' }) : '');

function ConversationRow({ c, lang }: { c: Conversation; lang: 'en' | 'ar' }) {
  const { t } = useTranslation('chat');
  const last = c.lastMessage;
  return (
    <UnstyledButton
      onClick={() => openChat(c.id)}
      p="xs"
      style={{ borderRadius: 'var(--mantine-radius-sm)', border: '1px solid var(--mantine-color-default-border)' }}
      data-testid="chat-conversation"
      aria-label={t('openConversation', { company: c.counterpart.companyName, ref: c.referenceId, count: c.unread })}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={c.unread ? 700 : 500} truncate>
            <bdi>{c.counterpart.companyName}</bdi>
          </Text>
          <Text fz="xs" c="dimmed">
            <bdi>{c.referenceId}</bdi>
          </Text>
          {/* a message is shown as its author typed it, digits included (e2e/digits.test.ts) */}
          <Text fz="sm" c="dimmed" truncate data-latin-digits>
            {last ? (last.mine && !last.call ? t('you', { body: preview(last, t, lang) }) : preview(last, t, lang)) : t('noMessages')}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
          <Text fz="xs" c="dimmed">
            {formatDate(c.lastAt, lang)}
          </Text>
          {c.unread > 0 && (
            <Badge color="masarRed" size="sm" circle={c.unread < 10} data-testid="chat-unread">
              {unreadLabel(c.unread, lang)}
            </Badge>
          )}
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

function Thread({ id }: { id: string }) {
  const { t, i18n } = useTranslation('chat');
  const lang = asLang(i18n.language);
  const q = useMessages(id);
  const conversation = useConversation(id).data;
  const typing = useTyping(id, conversation?.side);
  const send = useSendMessage(id);
  const read = useMarkChatRead(id);
  const upload = useUploadChatAttachment();
  const [text, setText] = useState('');
  // the uploaded file waiting to go with the next message
  const [attached, setAttached] = useState<{ id: string; name: string; mime: string } | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const pending = useRef<{ body: string; key: string; attachmentId?: string } | null>(null);
  // oldest first on screen; pages come newest first
  const messages = useMemo(() => (q.data?.pages.flatMap((p) => p.items) ?? []).slice().reverse(), [q.data]);
  const newest = messages[messages.length - 1];
  const lastTheirs = [...messages].reverse().find((m) => !m.mine);

  // reading the thread marks the other side's messages read (their ticks turn to "read")
  const readMutate = read.mutate;
  useEffect(() => {
    if (lastTheirs) readMutate(lastTheirs.id);
  }, [lastTheirs?.id, readMutate]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    viewport.current?.scrollTo?.({ top: viewport.current.scrollHeight });
  }, [newest?.id]);

  const pick = (file: File | null) => {
    if (!file) return;
    setPickError(null);
    upload.reset();
    const bad = checkChatAttachment(file);
    if (bad) {
      setPickError(bad === 'size' ? t('attachTooLarge', { mb: formatNumber(CHAT_ATTACHMENT_MAX_MB, lang) }) : t('attachType'));
      return;
    }
    setAttached(null);
    upload.mutate(file, { onSuccess: (f) => setAttached({ id: f.id, name: f.name ?? file.name, mime: f.mime }) });
  };

  const canSend = (!!text.trim() || !!attached) && !upload.isPending;
  const submit = () => {
    const body = text.trim();
    if (!canSend || send.isPending) return;
    const attachmentId = attached?.id;
    // a retry of the same message keeps its key: the server stores it once
    if (pending.current?.body !== body || pending.current?.attachmentId !== attachmentId) pending.current = { body, key: newMessageKey(), attachmentId };
    typing.stopped();
    send.mutate(pending.current, {
      onSuccess: () => {
        pending.current = null;
        setText('');
        setAttached(null);
      },
    });
  };
  const composerError = pickError ?? upload.error?.message ?? send.error?.message;

  return (
    <Stack gap="sm" style={{ height: 'calc(100dvh - 120px)' }}>
      <ScrollArea style={{ flex: 1 }} viewportRef={viewport} data-testid="chat-thread">
        {q.hasNextPage && (
          <Center>
            <Button variant="subtle" size="compact-sm" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
              {t('earlier')}
            </Button>
          </Center>
        )}
        {q.isLoading ? (
          <Center p="md">
            <Loader size="sm" />
          </Center>
        ) : !messages.length ? (
          <Text c="dimmed" ta="center" p="md">
            {t('noMessages')}
          </Text>
        ) : (
          <Stack gap={6} p={4}>
            {messages.map((m) => (
              <Bubble key={m.id} m={m} lang={lang} conversationId={id} />
            ))}
          </Stack>
        )}
      </ScrollArea>
      {typing.theirTyping && conversation && (
        <Text fz="xs" c="dimmed" aria-live="polite" data-testid="chat-typing">
          {t('typing', { name: conversation.counterpart.companyName })}
        </Text>
      )}
      {composerError && (
        <Text c="red" fz="sm" role="alert" data-testid="chat-error">
          {composerError}
        </Text>
      )}
      {(attached || upload.isPending) && (
        <Paper withBorder radius="xl" px="sm" py={4} style={{ alignSelf: 'flex-start', maxWidth: '100%' }} data-testid="chat-attachment-chip">
          <Group gap={6} wrap="nowrap">
            {upload.isPending ? (
              <Loader size={14} aria-label={t('attachUploading')} />
            ) : attached?.mime === 'application/pdf' ? (
              <IconFileTypePdf size={16} aria-hidden />
            ) : (
              <IconPhoto size={16} aria-hidden />
            )}
            <Text fz="sm" truncate>
              <bdi>{attached?.name ?? t('attachUploading')}</bdi>
            </Text>
            {attached && (
              <CloseButton
                size="sm"
                onClick={() => setAttached(null)}
                aria-label={t('attachRemove', { name: attached.name })}
                data-testid="chat-attachment-remove"
              />
            )}
          </Group>
        </Paper>
      )}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <FileButton onChange={pick} accept={CHAT_ATTACHMENT_ACCEPT}>
          {(props) => (
            <ActionIcon {...props} size="lg" variant="subtle" disabled={upload.isPending || send.isPending} aria-label={t('attach')} data-testid="chat-attach">
              <IconPaperclip size={18} />
            </ActionIcon>
          )}
        </FileButton>
        {conversation && (
          <QuickReplies
            side={conversation.side}
            disabled={send.isPending}
            onPick={(reply) => {
              // into the composer, to send as it is or to finish: after what is written, if anything
              setText((cur) => (cur.trim() ? `${cur.trimEnd()} ${reply}` : reply));
              typing.typed();
              input.current?.focus();
            }}
          />
        )}
        <Textarea
          ref={input}
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={5}
          maxLength={2000}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            if (e.currentTarget.value.trim()) typing.typed();
            else typing.stopped();
          }}
          onBlur={typing.stopped}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder={t('placeholder')}
          aria-label={t('placeholder')}
          data-testid="chat-input"
        />
        <ActionIcon size="lg" onClick={submit} loading={send.isPending} disabled={!canSend} aria-label={t('send')} data-testid="chat-send">
          <IconSend size={18} style={{ transform: i18n.dir?.() === 'rtl' ? 'scaleX(-1)' : undefined }} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}

function Bubble({ m, lang, conversationId }: { m: ChatMessage; lang: 'en' | 'ar'; conversationId: string }) {
  const { t } = useTranslation('chat');
  // a call's line (issue 48): how the call ended, in the reader's words and digits
  if (m.call) return <CallLine call={m.call} mine={m.mine} createdAt={m.createdAt} lang={lang} />;
  return (
    <Stack
      gap={2}
      p="xs"
      maw="85%"
      style={{
        alignSelf: m.mine ? 'flex-end' : 'flex-start',
        borderRadius: 'var(--mantine-radius-md)',
        background: m.mine ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)',
      }}
      data-testid="chat-message"
      data-mine={m.mine ? '1' : '0'}
    >
      {m.attachment && <Attachment a={m.attachment} lang={lang} conversationId={conversationId} />}
      {/* shown as its author typed it, digits included (e2e/digits.test.ts) */}
      {m.body && (
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-latin-digits>
          {m.body}
        </Text>
      )}
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Text fz="xs" c="dimmed">
          {formatDate(m.createdAt, lang)}
        </Text>
        {m.mine &&
          (m.read ? (
            <IconChecks size={14} color="var(--mantine-primary-color-filled)" aria-label={t('read')} data-testid="chat-tick-read" />
          ) : (
            <IconCheck size={14} color="var(--mantine-color-dimmed)" aria-label={t('sent')} data-testid="chat-tick-sent" />
          ))}
      </Group>
    </Stack>
  );
}

/** An image as a thumbnail (click saves it), a PDF as a link with its size. */
function Attachment({ a, lang, conversationId }: { a: ChatAttachment; lang: 'en' | 'ar'; conversationId: string }) {
  const { t } = useTranslation('chat');
  const src = useAttachmentImage(a, conversationId);
  const [failed, setFailed] = useState<string | null>(null);
  const name = a.name ?? t('attachmentUnnamed');
  const save = () => {
    setFailed(null);
    downloadAttachment(a, conversationId).catch((e: Error) => setFailed(e.message));
  };
  return (
    <Stack gap={2}>
      {src ? (
        <UnstyledButton onClick={save} aria-label={t('attachmentOpen', { name })} data-testid="chat-attachment-image">
          <Image src={src} alt={name} maw={220} mah={220} fit="contain" radius="sm" />
        </UnstyledButton>
      ) : (
        <Anchor component="button" type="button" fz="sm" onClick={save} data-testid="chat-attachment-link" ta="start">
          <Group gap={4} wrap="nowrap">
            {a.mime === 'application/pdf' ? <IconFileTypePdf size={16} aria-hidden /> : <IconPhoto size={16} aria-hidden />}
            <bdi>{name}</bdi>
            <Text span fz="xs" c="dimmed">
              {sizeLabel(a.size, lang, t)}
            </Text>
          </Group>
        </Anchor>
      )}
      {failed && (
        <Text c="red" fz="xs" role="alert">
          {failed}
        </Text>
      )}
    </Stack>
  );
}
