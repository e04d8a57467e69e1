// Calls about a load (issue 21): the call buttons a chat thread shows through a slot, the call layer
// the app layout mounts, and the handlers of the real-time call messages.
export { default as CallButtons } from './components/CallButtons';
export { default as CallLayer } from './components/CallLayer';
export { onCallMessage, onCallSignal } from './engine';
