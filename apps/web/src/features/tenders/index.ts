// What the tenders feature lends to other screens through app/slots.ts: "Offer this truck a load"
// on the truck board and "Tender" on my load's page (strings: the 'tenders' namespace, loaded
// with the slot).
export { TenderTruckButton } from './components/TenderTruckButton';
export { TenderLoadButton } from './components/TenderLoadButton';
