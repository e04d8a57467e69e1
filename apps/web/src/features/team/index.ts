/** The team feature's public surface for other features (depcruise: features import each other only here). */
export { InvitationsCard } from './components/InvitationsCard';
