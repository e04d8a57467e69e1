// What the notifications feature lends to other pages (slot NotificationPreferences on the settings page; page namespace 'notifications').
export { NotificationPreferencesSection } from './components/NotificationPreferencesSection';
