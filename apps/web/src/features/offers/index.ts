// What the offers feature lends to other screens through app/slots.ts (the load details page):
// the carrier's bid panel and the owner's offers panel (strings: the 'loads' namespace).
export { BidPanel } from './components/BidPanel';
export { OwnerOffersPanel } from './components/OwnerOffersPanel';
