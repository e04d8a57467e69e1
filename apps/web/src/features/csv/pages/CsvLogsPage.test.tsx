import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import CsvLogsPage from './CsvLogsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LOG = '01a201c4-0000-7000-8000-000000000001';
const ROW = '01a201c4-0000-7000-8000-0000000000aa';
const base = {
  id: LOG,
  type: 'vendors',
  fileName: 'vendors.csv',
  status: 'completed',
  total: 3,
  processing: 0,
  error: null,
  createdAt: '2026-11-22T05:00:00Z',
  updatedAt: '2026-11-22T05:00:01Z',
};
const failedRow = {
  id: ROW,
  rowNumber: 2,
  data: { userType: 'carrier', companyName: 'Bad VAT', vendorName: 'Omar', phone: '0551000002', email: 'a2@x.sa', vatNumber: '123' },
  errors: [{ path: 'vatNumber', message: 'v.vatNumber', code: 'VALIDATION_FAILED' }],
};

describe('CSV logs: fix failed rows', () => {
  it('lists failed rows with localized per-field errors, resubmits the edit and shows success', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('en');
    let fixed = false;
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith(`/csv/logs/${LOG}`))
        return {
          body: {
            message: 'OK',
            data: fixed ? { ...base, succeeded: 3, failed: 0, rows: [], rowsTotal: 0 } : { ...base, succeeded: 2, failed: 1, rows: [failedRow], rowsTotal: 1 },
          },
        };
      if (method === 'POST' && path === `/csv/logs/${LOG}/retry`) {
        fixed = true;
        return { body: { message: 'OK', data: { ...base, succeeded: 3, failed: 0, rows: [], rowsTotal: 0 } } };
      }
      return undefined;
    });
    renderWithApp(<CsvLogsPage />, { path: `/brokers/csv-logs?log=${LOG}` });
    const user = userEvent.setup({ delay: null });
    const vat = await screen.findByTestId('fix-row-2-vatNumber');
    expect(screen.getByText('VAT number')).toBeTruthy();
    expect(screen.getByTestId('csv-detail-failed').textContent).toBe('1');
    // The server's v.* key is shown in the user's language.
    expect(screen.getByTestId('csv-failed-row-2').textContent).not.toContain('v.vatNumber');
    await user.clear(vat);
    await user.type(vat, '300000000000003');
    await user.click(screen.getByTestId('csv-resubmit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ rows: [{ rowId: ROW, data: { ...failedRow.data, vatNumber: '300000000000003' } }] });
    expect(await screen.findByTestId('csv-no-failed-rows')).toBeTruthy();
    expect(screen.getByTestId('csv-detail-succeeded').textContent).toBe('3');
  });
});
