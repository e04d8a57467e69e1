import { REALTIME_PATH, userTopic, type ChatCredentials } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';

/** GET /account/isometricUserId: this product's own chat credentials (spec §3 shape). */
export function chatCredentials(user: CurrentUser): ChatCredentials {
  return {
    chatUserId: user.id,
    licenseKey: 'masar',
    accountId: user.id,
    keysetId: 'masar-mqtt-v1',
    projectId: 'masar',
    appSecret: null,
    userToken: null,
    mqttTopic: userTopic(user.id),
    mqttPath: REALTIME_PATH,
  };
}
