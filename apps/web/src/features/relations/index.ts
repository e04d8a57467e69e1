// What the relations feature lends to other screens (load details, offers): small components that
// fetch their own strings (page namespace 'relations').
export { RelationMenu } from './components/RelationMenu';
export { CounterpartContactCard } from './components/CounterpartContactCard';
