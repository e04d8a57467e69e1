// What the searches feature lends to the search pages (slot SavedSearches): save a search, the
// saved and recent ones (page namespace 'searches').
export { SavedSearches } from './components/SavedSearches';
