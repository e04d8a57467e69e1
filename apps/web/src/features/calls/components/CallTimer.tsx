import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCallDuration } from '../../../components/format';

/** mm:ss (h:mm:ss past an hour) of `ms`, in the reader's digits (components/format formatCallDuration). */
export const callDuration = (ms: number, lang?: string): string => formatCallDuration(ms / 1000, lang);

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
