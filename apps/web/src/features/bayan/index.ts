// What the Bayan feature lends to other screens (the shipment details page): the Bayan panel,
// whose strings are the page namespace 'bayan' (loaded with the details page, routes.tsx).
export { BayanPanel } from './components/BayanPanel';
