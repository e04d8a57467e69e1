import { notifications } from '@mantine/notifications';
import { ApiError } from '../lib/api';
import i18n from '../i18n';

/**
 * Show a failed call to the user. The server's message is already localized (language header),
 * so it is shown as is — e.g. SHIPMENT_ALREADY_ASSIGNED, BIDDING_CLOSED, PLAN_REQUIRED.
 */
export function notifyError(err: unknown) {
  const message = err instanceof ApiError || err instanceof Error ? err.message : i18n.t('loads:error.generic');
  const code = err instanceof ApiError ? err.code : undefined;
  notifications.show({
    color: 'masarRed',
    title: i18n.t('loads:error.title'),
    message: message || i18n.t('loads:error.generic'),
    autoClose: 6000,
    id: code ? `err-${code}` : undefined,
  });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'masar', message, autoClose: 3500 });
}
