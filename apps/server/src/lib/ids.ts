import { uuidv7 } from 'uuidv7';

/** New primary key: UUIDv7 (time-ordered, DESIGN §3). */
export const newId = (): string => uuidv7();
