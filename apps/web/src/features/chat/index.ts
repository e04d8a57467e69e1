// Chat about a load (issue 21): the header button with its panel, and the "Message …" button other features' pages show through a slot.
export { default as ChatHeaderButton } from './components/ChatHeaderButton';
export { default as MessageButton } from './components/MessageButton';
export { openChat, closeChat } from './store';
