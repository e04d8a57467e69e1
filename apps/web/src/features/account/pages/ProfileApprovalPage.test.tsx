import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@mantine/notifications';
import type { Verification } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import ProfileApprovalPage from './ProfileApprovalPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

type Doc = Verification['documents'][number];
const FILE_ID = '01a201c4-0000-7000-8000-0000000000f1';
const doc = (type: Doc['type'], required: boolean): Doc => ({ type, required, state: 'not_uploaded', file: null, reason: null, updatedAt: null });

/**
 * The shipper's documents as the server keeps them (spec §2 /profile-approval): not uploaded →
 * submitted (uploaded) → pending approval → rejected with the operator's reason → re-upload.
 */
function fakeServer() {
  const v: Verification = {
    state: 'not_uploaded',
    reason: null,
    submittedAt: null,
    decidedAt: null,
    canSubmit: false,
    documents: [doc('commercial_registration', true), doc('vat_certificate', true), doc('letterhead', false)],
  };
  const refresh = () => {
    v.canSubmit = v.documents.every((d) => !d.required || d.state !== 'not_uploaded') && v.documents.every((d) => d.state !== 'rejected');
    return { body: { message: 'OK', data: structuredClone(v) } };
  };
  const calls = stubApi((method, path, body) => {
    if (method === 'GET' && path === '/profile-approval') return refresh();
    if (method === 'POST' && path === '/files')
      return { status: 201, body: { message: 'OK', data: { id: FILE_ID, url: '/api/v1/files/x', mime: 'application/pdf', size: 10, name: 'cr.pdf' } } };
    const put = /^\/profile-approval\/documents\/(\w+)$/.exec(path);
    if (method === 'PUT' && put) {
      const d = v.documents.find((x) => x.type === put[1])!;
      Object.assign(d, {
        state: 'submitted',
        reason: null,
        file: { id: (body as { fileId: string }).fileId, url: '/api/v1/files/x', mime: 'application/pdf', size: 10, name: 'cr.pdf' },
      });
      if (v.state === 'not_uploaded') v.state = 'submitted';
      return refresh();
    }
    if (method === 'POST' && path === '/profile-approval/submit') {
      v.state = 'pending_approval';
      return refresh();
    }
    return undefined;
  });
  /** The operator's decision (admin CLI `reject --reason`). */
  const reject = (reason: string) => {
    v.state = 'rejected';
    v.reason = reason;
    v.documents[0].state = 'rejected';
    v.documents[0].reason = reason;
  };
  return { calls, reject };
}

async function upload(type: string) {
  const row = screen.getByTestId(`doc-${type}`);
  const input = row.querySelector('input[type=file]') as HTMLInputElement;
  await userEvent.upload(input, new File(['%PDF-1.4'], `${type}.pdf`, { type: 'application/pdf' }));
  return row;
}

describe('ProfileApprovalPage', { timeout: 30_000 }, () => {
  it('takes a shipper in Arabic from no documents to pending, then a rejection with its reason and a re-upload', async () => {
    await i18n.changeLanguage('ar');
    const server = fakeServer();
    const view = renderWithApp(
      <>
        <Notifications />
        <ProfileApprovalPage />
      </>,
      { path: '/shippers/profile-approval', dir: 'rtl' },
    );
    expect(await screen.findByRole('heading', { name: 'توثيق المنشأة' })).toBeTruthy();
    // not uploaded: both required documents say so, and sending waits for them
    expect(within(await screen.findByTestId('doc-commercial_registration')).getByText('لم يُرفع')).toBeTruthy();
    const submit = screen.getByTestId<HTMLButtonElement>('verification-submit');
    expect(submit.disabled).toBe(true);
    expect(screen.getByText('ارفع جميع المستندات المطلوبة أولاً.')).toBeTruthy();

    // a file that is not a document is refused before any upload
    const cr = screen.getByTestId('doc-commercial_registration');
    await userEvent.upload(cr.querySelector('input[type=file]') as HTMLInputElement, new File(['x'], 'cr.exe', { type: 'application/x-msdownload' }), {
      applyAccept: false,
    });
    expect(await within(cr).findByText('ارفع ملف PDF أو JPG أو PNG.')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/files')).toHaveLength(0);

    // submitted: each uploaded document shows it; then sent for review
    await waitFor(async () => expect(within(await upload('commercial_registration')).getByText('تم الرفع')).toBeTruthy());
    await waitFor(async () => expect(within(await upload('vat_certificate')).getByText('تم الرفع')).toBeTruthy());
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('verification-submit').disabled).toBe(false));
    await userEvent.click(screen.getByTestId('verification-submit'));
    expect((await screen.findByTestId('verification-state')).textContent).toContain('بانتظار الموافقة');
    // while the operator reviews, nothing can be replaced
    expect(screen.queryByTestId('verification-submit')).toBeNull();
    expect(within(screen.getByTestId('doc-commercial_registration')).queryByRole('button')).toBeNull();

    // rejected with the reason: shown on the page and on the document, which can be uploaded again
    server.reject('The CR number is not readable.');
    view.unmount();
    renderWithApp(<ProfileApprovalPage />, { path: '/shippers/profile-approval', dir: 'rtl' });
    const state = await screen.findByTestId('verification-state');
    expect(state.textContent).toContain('تم رفض المستندات');
    expect(state.textContent).toContain('The CR number is not readable.');
    expect(state.textContent).toContain('استبدل المستندات المرفوضة وأرسلها مرة أخرى.');
    const rejected = await screen.findByTestId('doc-commercial_registration');
    expect(within(rejected).getByText('مرفوض')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('verification-submit').disabled).toBe(true);
    expect(within(rejected).getByRole('button', { name: 'رفع السجل التجاري' }).textContent).toBe('استبدال');
    await waitFor(async () => expect(within(await upload('commercial_registration')).getByText('تم الرفع')).toBeTruthy());
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('verification-submit').disabled).toBe(false));
    expect(server.calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([
      '/profile-approval/documents/commercial_registration',
      '/profile-approval/documents/vat_certificate',
      '/profile-approval/documents/commercial_registration',
    ]);
  });
});
