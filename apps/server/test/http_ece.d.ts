// http_ece (the content encoding web-push uses; RFC 8188) ships no types: what the push test uses.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  interface Params {
    version: 'aes128gcm' | 'aesgcm';
    privateKey?: ECDH;
    authSecret?: string | Buffer;
    dh?: string | Buffer;
    key?: string | Buffer;
    salt?: string | Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: Params): Buffer; encrypt(buffer: Buffer, params: Params): Buffer };
  export default ece;
}
