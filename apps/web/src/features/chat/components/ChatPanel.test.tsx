import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { applyRealtimeMessage } from '../../../app/layout/RealtimeBridge';
import { closeChat, openChat } from '../store';
import ChatHeaderButton from './ChatHeaderButton';
import MessageButton from './MessageButton';

afterEach(async () => {
  cleanup();
  closeChat();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const CONV = '0193a000-0000-7000-8000-0000000000c1';
const LOAD = '33333333-3333-4333-8333-333333333333';
const ME = '11111111-1111-4111-8111-111111111111';
const THEM = '22222222-2222-4222-8222-222222222222';
const msg = (seq: number, mine: boolean, read: boolean | null, body = `message ${seq}`) => ({
  id: `0193a000-0000-7000-8000-00000000010${seq}`,
  conversationId: CONV,
  seq,
  senderId: mine ? ME : THEM,
  mine,
  body,
  attachmentId: null,
  attachment: null as null | { id: string; name: string | null; mime: string; size: number; url: string },
  createdAt: '2026-11-26T10:00:00.000Z',
  read,
});
const conversation = (unread: number, last = msg(3, false, null)) => ({
  id: CONV,
  loadId: LOAD,
  referenceId: 'LD-001305',
  shipperId: THEM,
  carrierId: ME,
  side: 'carrier',
  counterpart: { userId: THEM, companyName: 'Najd Foods' },
  lastMessage: last,
  lastAt: '2026-11-26T10:00:00.000Z',
  unread,
  counterpartReadSeq: 1,
  createdAt: '2026-11-26T09:00:00.000Z',
});

function chatApi() {
  let unread = 12;
  const sent: string[] = [];
  const calls = stubApi((m, p, body) => {
    if (p === '/chat/unread') return { body: { message: 'OK', data: { unread, conversations: unread ? 1 : 0 } } };
    if (m === 'GET' && p.startsWith('/chat/conversations?')) return { body: { message: 'OK', data: { items: [conversation(unread)], nextCursor: null } } };
    if (m === 'GET' && p === `/chat/conversations/${CONV}`) return { body: { message: 'OK', data: conversation(unread) } };
    if (m === 'GET' && p.startsWith(`/chat/conversations/${CONV}/messages`))
      return {
        body: {
          message: 'OK',
          data: {
            items: [...sent.map((b, i) => msg(4 + i, true, false, b)).reverse(), msg(3, false, null), msg(2, true, false), msg(1, true, true)],
            nextCursor: null,
            counterpartReadSeq: 1,
          },
        },
      };
    if (m === 'POST' && p === `/chat/conversations/${CONV}/read`) {
      unread = 0;
      return { body: { message: 'OK', data: { conversationId: CONV, readSeq: 3, unread: 0 } } };
    }
    if (m === 'POST' && p === `/chat/conversations/${CONV}/messages`) {
      sent.push((body as { body: string }).body);
      return { status: 201, body: { message: 'OK', data: msg(3 + sent.length, true, false, sent[sent.length - 1]) } };
    }
    if (m === 'POST' && p === '/chat/conversations') return { status: 201, body: { message: 'OK', data: conversation(unread) } };
    return undefined;
  });
  return { calls, sent };
}

describe('chat panel', { timeout: 20_000 }, () => {
  it('shows the header count, the conversation list with its badge, the thread with read ticks, and sends on Enter', async () => {
    await loadNamespaces(['chat']);
    const { calls, sent } = chatApi();
    renderWithApp(<ChatHeaderButton />, { path: '/carriers/my-shipments' });
    const button = await screen.findByRole('button', { name: 'Messages, 12 unread' });
    await waitFor(() => expect(screen.getByTestId('chat-count').getAttribute('data-count')).toBe('12'));
    await userEvent.click(button);

    const row = await screen.findByTestId('chat-conversation');
    expect(row.textContent).toContain('Najd Foods');
    expect(within(row).getByTestId('chat-unread').textContent).toBe('12');
    await userEvent.click(row);

    const bubbles = await screen.findAllByTestId('chat-message');
    // oldest first
    expect(bubbles.map((b) => b.textContent?.split('message ')[1]?.[0])).toEqual(['1', '2', '3']);
    expect(within(bubbles[0]).getByTestId('chat-tick-read')).toBeTruthy();
    expect(within(bubbles[1]).getByTestId('chat-tick-sent')).toBeTruthy();
    // reading the thread marks their message read
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/read'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/read'))!.body).toEqual({ messageId: msg(3, false, null).id });

    const input = screen.getByTestId('chat-input');
    await userEvent.type(input, 'On my way{Enter}');
    await waitFor(() => expect(sent).toEqual(['On my way']));
    const post = calls.find((c) => c.method === 'POST' && c.path.endsWith('/messages'))!;
    expect(post.headers['idempotency-key']).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId<HTMLTextAreaElement>('chat-input').value).toBe(''));
    // Shift+Enter is a new line, not a send
    await userEvent.type(screen.getByTestId('chat-input'), 'line one{Shift>}{Enter}{/Shift}');
    expect(sent).toHaveLength(1);
  });

  it('offers my side’s quick replies in Arabic; one goes into the composer and is sent as it is', async () => {
    await loadNamespaces(['chat']);
    await i18n.changeLanguage('ar');
    const { sent } = chatApi();
    renderWithApp(<ChatHeaderButton />, { path: '/carriers/my-shipments', dir: 'rtl' });
    act(() => openChat(CONV));
    await userEvent.click(await screen.findByRole('button', { name: 'ردود سريعة' }));
    // the carrier's questions, not the shipper's
    expect(await screen.findByTestId('chat-quick-loadingTime')).toBeTruthy();
    expect(screen.queryByTestId('chat-quick-plate')).toBeNull();
    await userEvent.click(screen.getByTestId('chat-quick-ready'));
    const input = screen.getByTestId<HTMLTextAreaElement>('chat-input');
    expect(input.value).toBe('هل الحمولة جاهزة للتحميل؟');
    expect(document.activeElement).toBe(input);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(sent).toEqual(['هل الحمولة جاهزة للتحميل؟']));
  });

  it('attaches a PDF: checks type and size first, uploads it as a chip, sends it without text, lists it as a link', async () => {
    await loadNamespaces(['chat']);
    const FILE = '0193a000-0000-7000-8000-0000000000f1';
    const sent: { body: string; attachmentId?: string }[] = [];
    const attachment = {
      id: FILE,
      name: 'rate-sheet.pdf',
      mime: 'application/pdf',
      size: 2_400_000,
      url: `/api/v1/chat/conversations/${CONV}/attachments/${FILE}`,
    };
    const calls = stubApi((m, p, body) => {
      if (p === '/chat/unread') return { body: { message: 'OK', data: { unread: 0, conversations: 0 } } };
      if (m === 'GET' && p === `/chat/conversations/${CONV}`) return { body: { message: 'OK', data: conversation(0) } };
      if (m === 'GET' && p.startsWith(`/chat/conversations/${CONV}/messages`))
        return {
          body: {
            message: 'OK',
            data: {
              items: [...sent.map((b, i) => ({ ...msg(4 + i, true, false, b.body), attachmentId: FILE, attachment })), msg(3, false, null)],
              nextCursor: null,
              counterpartReadSeq: 1,
            },
          },
        };
      if (m === 'POST' && p === `/chat/conversations/${CONV}/read`) return { body: { message: 'OK', data: { conversationId: CONV, readSeq: 3, unread: 0 } } };
      if (m === 'POST' && p === '/files')
        return {
          status: 201,
          body: {
            message: 'OK',
            data: { id: FILE, url: `/api/v1/files/${FILE}`, mime: 'application/pdf', size: 2_400_000, purpose: 'chat-attachment', name: 'rate-sheet.pdf' },
          },
        };
      if (m === 'POST' && p === `/chat/conversations/${CONV}/messages`) {
        sent.push(body as { body: string; attachmentId?: string });
        return { status: 201, body: { message: 'OK', data: { ...msg(4, true, false, ''), attachmentId: FILE, attachment } } };
      }
      return undefined;
    });
    renderWithApp(<ChatHeaderButton />);
    act(() => openChat(CONV));
    await screen.findAllByTestId('chat-message');
    // no file, no text: nothing to send
    expect(screen.getByTestId<HTMLButtonElement>('chat-send').disabled).toBe(true);

    const user = userEvent.setup({ applyAccept: false });
    const input = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input(), new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Attachments can be at most 5 MB.');
    await user.upload(input(), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Attach a photo (JPG, PNG or WebP) or a PDF.');
    expect(calls.some((c) => c.path.startsWith('/files'))).toBe(false);

    const append = vi.spyOn(FormData.prototype, 'append');
    await user.upload(input(), new File(['%PDF-1.4'], 'rate-sheet.pdf', { type: 'application/pdf' }));
    const chip = await screen.findByTestId('chat-attachment-chip');
    await waitFor(() => expect(chip.textContent).toContain('rate-sheet.pdf'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/files')).toHaveLength(1);
    expect(append).toHaveBeenCalledWith('purpose', 'chat-attachment');
    append.mockRestore();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('chat-send').disabled).toBe(false));

    await user.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(sent).toEqual([{ body: '', attachmentId: FILE }]));
    expect(calls.find((c) => c.path.endsWith('/messages') && c.method === 'POST')!.headers['idempotency-key']).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('chat-attachment-chip')).toBeNull());
    // the thread shows it as a link with its size
    const link = await screen.findByTestId('chat-attachment-link');
    expect(link.textContent).toContain('rate-sheet.pdf');
    expect(link.textContent).toContain('2.3 MB');
  });

  it('a chip can be removed before sending', async () => {
    await loadNamespaces(['chat']);
    const FILE = '0193a000-0000-7000-8000-0000000000f2';
    stubApi((m, p) => {
      if (p === '/chat/unread') return { body: { message: 'OK', data: { unread: 0, conversations: 0 } } };
      if (m === 'GET' && p === `/chat/conversations/${CONV}`) return { body: { message: 'OK', data: conversation(0) } };
      if (m === 'GET' && p.startsWith(`/chat/conversations/${CONV}/messages`))
        return { body: { message: 'OK', data: { items: [], nextCursor: null, counterpartReadSeq: 0 } } };
      if (m === 'POST' && p === '/files')
        return {
          status: 201,
          body: { message: 'OK', data: { id: FILE, url: `/api/v1/files/${FILE}`, mime: 'image/png', size: 10, purpose: 'chat-attachment', name: 'bay.png' } },
        };
      return undefined;
    });
    renderWithApp(<ChatHeaderButton />);
    act(() => openChat(CONV));
    const user = userEvent.setup();
    await screen.findByTestId('chat-input');
    await user.upload(document.querySelector<HTMLInputElement>('input[type=file]')!, new File(['png'], 'bay.png', { type: 'image/png' }));
    await user.click(await screen.findByRole('button', { name: 'Remove bay.png' }));
    expect(screen.queryByTestId('chat-attachment-chip')).toBeNull();
    expect(screen.getByTestId<HTMLButtonElement>('chat-send').disabled).toBe(true);
  });

  it('writes the counts in Arabic-Indic digits in Arabic', async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['chat']);
    chatApi();
    renderWithApp(<ChatHeaderButton />, { dir: 'rtl', path: '/carriers/my-shipments' });
    await waitFor(() => expect(screen.getByTestId('chat-count').getAttribute('data-count')).toBe('12'));
    await userEvent.click(screen.getByTestId('chat-button'));
    const badge = await screen.findByTestId('chat-unread');
    expect(badge.textContent).toBe('١٢');
  });

  it('"Message the shipper" opens the conversation in the panel', async () => {
    await loadNamespaces(['chat']);
    const { calls } = chatApi();
    renderWithApp(
      <>
        <ChatHeaderButton />
        <MessageButton loadId={LOAD} to="shipper" />
      </>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Message the shipper' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/chat/conversations')).toBe(true));
    expect(calls.find((c) => c.path === '/chat/conversations')!.body).toEqual({ loadId: LOAD });
    expect(await screen.findByTestId('chat-thread')).toBeTruthy();
  });

  it('a conversation event over MQTT re-reads the chat queries', () => {
    const qc = new QueryClient();
    const spy = vi.spyOn(qc, 'invalidateQueries');
    applyRealtimeMessage(qc, {
      v: 1,
      kind: 'event',
      id: 'e1',
      type: 'chat.message_sent',
      aggregateType: 'conversation',
      aggregateId: CONV,
      loadId: LOAD,
      at: '2026-11-26T10:00:00.000Z',
    });
    expect(spy.mock.calls.map((c) => c[0]?.queryKey)).toEqual([['notifications'], ['chat']]);
  });
});
