import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { EscrowPanel } from './PaymentProtection';
import { ProtectedBadge } from './LoadBadges';
import { DetentionPanel } from './DetentionPanel';

beforeAll(async () => {
  await i18n.loadNamespaces('loads');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ID = '01a201b8-d4ce-74b2-b96a-76f14f4c9341';
const escrow = (status: string) => ({
  id: '01a201b8-d4ce-74b2-b96a-76f14f4c9342',
  loadId: ID,
  status,
  priceSar: '2800.00',
  vatSar: '420.00',
  totalSar: '3220.00',
  fundedAt: null,
  releaseAt: null,
  releasedAt: null,
  dispute: null,
  settlement: null,
});

describe('payment protection (issue 50)', { timeout: 20_000 }, () => {
  it('shows Protected / محمي and, to the carrier, that the escrow is funded (Arabic)', async () => {
    await i18n.changeLanguage('ar');
    stubApi((method, path) =>
      method === 'GET' && path === `/loads/${ID}/escrow` ? { status: 200, body: { message: 'ok', data: escrow('funded') } } : undefined,
    );
    renderWithApp(
      <>
        <ProtectedBadge load={{ paymentProtection: true }} />
        <ProtectedBadge load={{ paymentProtection: false }} />
        <EscrowPanel load={{ id: ID, paymentProtection: true }} isShipper={false} />
      </>,
      { dir: 'rtl' },
    );
    expect(screen.getAllByTestId('protected-badge').map((b) => b.textContent)).toEqual(['محمي']);
    expect((await screen.findByTestId('escrow-status')).textContent).toBe('مموّل');
    expect(screen.queryByTestId('escrow-fund')).toBeNull();
  });

  it('lets the shipper fund an unfunded escrow from the wallet, with an Idempotency-Key', async () => {
    let status = 'unfunded';
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === `/loads/${ID}/escrow/fund`) {
        status = 'funded';
        return { status: 200, body: { message: 'ok', data: escrow('funded') } };
      }
      return method === 'GET' && path === `/loads/${ID}/escrow` ? { status: 200, body: { message: 'ok', data: escrow(status) } } : undefined;
    });
    renderWithApp(<EscrowPanel load={{ id: ID, paymentProtection: true }} isShipper />);
    expect((await screen.findByTestId('escrow-status')).textContent).toBe('Not funded');
    await userEvent.click(screen.getByTestId('escrow-fund'));
    expect((await screen.findByText('Funded')).textContent).toBe('Funded');
    const fund = calls.find((c) => c.method === 'POST');
    expect(fund?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows detention per stop from the step times (Arabic) and lets the shipper accept it once', async () => {
    await i18n.changeLanguage('ar');
    const fact = { at: '2026-12-01T06:00:00.000Z', recordedOffline: true, lat: 24.7, lng: 46.7, distanceKm: 0.2, flagged: false };
    const stop = (decision: null | { decision: 'accepted'; amountSar: string; reason: null; at: string }) => ({
      stop: 'pickup',
      arrival: fact,
      departure: { ...fact, at: '2026-12-01T11:00:00.000Z', recordedOffline: false },
      proofId: null,
      accruing: false,
      dwellMinutes: 300,
      billableMinutes: 180,
      amountSar: '250.00',
      capped: true,
      decision,
    });
    const detention = (decision: Parameters<typeof stop>[0]) => ({
      loadId: ID,
      freeHours: 2,
      rateSar: '100.00',
      capSar: '250.00',
      stops: [stop(decision)],
      totalSar: '250.00',
    });
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === `/loads/${ID}/detention/decide`)
        return {
          status: 200,
          body: { message: 'ok', data: detention({ decision: 'accepted', amountSar: '250.00', reason: null, at: '2026-12-01T12:00:00.000Z' }) },
        };
      return method === 'GET' && path === `/loads/${ID}/detention` ? { status: 200, body: { message: 'ok', data: detention(null) } } : undefined;
    });
    renderWithApp(<DetentionPanel loadId={ID} isShipper />, { dir: 'rtl' });
    expect((await screen.findByTestId('detention-pickup-amount')).textContent).toContain('١٨٠');
    expect(screen.getByTestId('detention-panel').textContent).toContain('سُجّل دون اتصال');
    await userEvent.click(screen.getByTestId('detention-pickup-accept'));
    expect(await screen.findByText('مقبولة')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stop: 'pickup', decision: 'accept' });
    expect(screen.queryByTestId('detention-pickup-accept')).toBeNull();
  });
});
