// See apps/web/aliases.ts: the toast container module of @mantine/notifications on its own.
declare module '@mantine/notifications/container' {
  export { Notifications } from '@mantine/notifications';
}
