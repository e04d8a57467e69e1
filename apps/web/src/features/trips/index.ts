// What the trips feature lends to other screens (the load details page): small components that
// fetch their own strings (page namespace 'trips').
export { DaysToPayBadge } from './components/DaysToPayBadge';
export { PaymentReceivedButton } from './components/PaymentReceivedButton';
