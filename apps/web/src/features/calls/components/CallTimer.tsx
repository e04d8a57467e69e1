import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inDigitSystem } from '../../../lib/digits';

/** mm:ss (h:mm:ss past an hour) of `ms`, in the reader's digits. */
export function callDuration(ms: number, lang?: string): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return inDigitSystem(h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`, lang);
}

/** The running timer of a connected call (spec §3 startedAt), ticking every second. */
export function CallTimer({ startedAt }: { startedAt: number }) {
  const { i18n } = useTranslation('calls');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return (
    <span data-testid="call-timer" dir="ltr" role="timer" aria-live="off">
      {callDuration(now - startedAt, i18n.language)}
    </span>
  );
}
