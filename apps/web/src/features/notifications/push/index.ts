// The lazily loaded web push client of the notifications feature (app/PushTopicSync imports it on demand).
export { syncPushTopics, unsubscribeBeforeSignOut } from './push';
