import { fileTypeFromBuffer } from 'file-type';
import { CHAT_ATTACHMENT_MIME_TYPES, FILE_MIME_TYPES, LIMITS, type FilePurpose, type UploadedFile } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  claimChatAttachment,
  deleteUnsentChatAttachments,
  findFileById,
  findFileRefs,
  findOwnedFile,
  insertFile,
  type FileRefRow,
  type FileRow,
} from './files.repository.ts';
import type { StorageGateway } from '../../gateways/storage/index.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { replayNext } from '../../lib/tx-journal.ts';

export const fileUrl = (id: string) => `/api/v1/files/${id}`;
/** The file-name extension of a stored (sniffed) type. */
export const toFileRef = (f: Pick<FileRefRow, 'id' | 'mime' | 'size'>) => ({ id: f.id, url: fileUrl(f.id), mime: f.mime, size: f.size });

/**
 * Sniff the real type of an upload from its magic bytes (file-type), never from its name or
 * content-type (DESIGN §3 security). Returns the mime when it is PDF, JPEG or PNG, else null.
 */
export async function sniffDocumentMime(data: Buffer, allowed: readonly string[] = FILE_MIME_TYPES): Promise<string | null> {
  const t = await fileTypeFromBuffer(data);
  return t && allowed.includes(t.mime) ? t.mime : null;
}

/**
 * The types a purpose accepts and the error for any other: documents are PDF, JPG or PNG (spec
 * §5); a chat attachment may also be a WebP photo (issue 21, as trip proofs).
 */
function typesOf(purpose: FilePurpose) {
  return purpose === 'chat-attachment'
    ? { allowed: CHAT_ATTACHMENT_MIME_TYPES, refused: 'CHAT_ATTACHMENT_TYPE_NOT_ALLOWED' as const }
    : { allowed: FILE_MIME_TYPES, refused: 'FILE_TYPE_NOT_ALLOWED' as const };
}

/**
 * Uploaded documents and images (spec §5 "documents PDF, JPG or PNG, at most 5MB"). Only the
 * uploader can read a file or attach it to a record.
 */
export function createFilesService(deps: { db: Db; storage: StorageGateway; log?: { error(o: unknown, m: string): void } }) {
  const { db, storage } = deps;
  return {
    async upload(ownerId: string, purpose: FilePurpose, data: Buffer, name: string | null): Promise<UploadedFile> {
      if (data.length === 0) throw new AppError('UPLOAD_FILE_FIRST');
      if (data.length > LIMITS.documentMaxBytes) throw new AppError('FILE_TOO_LARGE');
      const types = typesOf(purpose);
      const mime = await sniffDocumentMime(data, types.allowed);
      if (!mime) throw new AppError(types.refused);
      // a same-key retry after a crash that committed the file answers that file (its id is the
      // replay key) and stores no second copy of the bytes
      const replayed = replayNext();
      if (replayed) return replayed.value as UploadedFile;
      const id = newId();
      const d = new Date();
      const key = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
      await storage.put(key, data);
      const safeName = name ? name.replace(/[^\p{L}\p{N}._ -]/gu, '_').slice(0, 120) : null;
      // a transaction so that a keyed request journals the file it committed (lib/tx-journal.ts)
      return db.transaction(async (tx) => {
        await insertFile(tx, { id, ownerId, purpose, mime, size: data.length, name: safeName, storageKey: key });
        return { ...toFileRef({ id, mime, size: data.length }), purpose, name: safeName };
      });
    },

    /** The file row and a stream of its bytes; 404 for someone else's file. */
    async open(ownerId: string, id: string) {
      const row = await findOwnedFile(db, ownerId, id);
      if (!row) throw new AppError('NOT_FOUND');
      return { row, stream: await storage.get(row.storageKey) };
    },

    /**
     * The periodic clean-up of chat uploads never sent (job `files.unsent`, hourly; docs/chat.md
     * "Attachments"): every `chat-attachment` file not on a message `olderThanHours` after its
     * upload loses its row and then its bytes (storage gateway), in batches of `batch` read from
     * the partial index of unsent uploads. A failed byte deletion is logged and leaves an orphan
     * object, never a row without bytes. Returns how many files were removed.
     */
    async removeUnsentChatAttachments(o: { olderThanHours?: number; batch?: number } = {}): Promise<number> {
      const before = new Date(Date.now() - (o.olderThanHours ?? 24) * 3_600_000);
      const batch = o.batch ?? 500;
      let removed = 0;
      for (;;) {
        const gone = await db.transaction((tx) => deleteUnsentChatAttachments(tx, before, batch));
        for (const f of gone)
          await storage.delete(f.storageKey).catch((err: unknown) => deps.log?.error({ err, fileId: f.id }, 'files: unsent upload bytes not deleted'));
        removed += gone.length;
        if (gone.length < batch) return removed;
      }
    },

    /**
     * Any file's row and bytes, for a module that has already decided the viewer may see it (a
     * chat attachment: the two sides of its conversation). NOT_FOUND when it does not exist.
     */
    async openShared(id: string): Promise<{ row: FileRow; stream: Awaited<ReturnType<StorageGateway['get']>> }> {
      const row = await findFileById(db, id);
      if (!row) throw new AppError('NOT_FOUND');
      return { row, stream: await storage.get(row.storageKey) };
    },
  };
}

/**
 * Check that every id is a document of `ownerId` — not a chat attachment — (INVALID_FILE
 * otherwise) and return their refs by id. Used by fleet and vendors before they store file ids.
 */
export async function ownedFiles(tx: DbOrTx, ownerId: string, ids: string[]): Promise<Map<string, ReturnType<typeof toFileRef>>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, ReturnType<typeof toFileRef>>();
  if (unique.length === 0) return out;
  const rows = await findFileRefs(tx, unique, ownerId);
  // a chat attachment is not a document (it may be WebP, and its other side can read it)
  for (const r of rows) if (r.purpose !== 'chat-attachment') out.set(r.id, toFileRef(r));
  if (out.size !== unique.length) throw new AppError('INVALID_FILE');
  return out;
}

/** File refs of any ids (no ownership check; callers already own the record). */
export async function fileRefs(tx: DbOrTx, ids: string[]): Promise<Map<string, ReturnType<typeof toFileRef>>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, ReturnType<typeof toFileRef>>();
  if (unique.length === 0) return out;
  const rows = await findFileRefs(tx, unique);
  for (const r of rows) out.set(r.id, toFileRef(r));
  return out;
}

/**
 * A chat attachment `ownerId` uploaded (purpose `chat-attachment`), taken inside the sending
 * transaction: it is marked as on a message (`attached_at`, so the clean-up of unsent uploads
 * never deletes it); CHAT_ATTACHMENT_UNAVAILABLE for any other file (someone else's, another
 * purpose, unknown, or deleted as unsent). That it was not sent before is the chat module's
 * unique index (one message per file).
 */
export async function ownedChatAttachment(tx: DbOrTx, ownerId: string, id: string): Promise<Pick<FileRow, 'id' | 'mime' | 'size' | 'name'>> {
  const row = await claimChatAttachment(tx, ownerId, id);
  if (!row) throw new AppError('CHAT_ATTACHMENT_UNAVAILABLE');
  return row;
}
export type FilesService = ReturnType<typeof createFilesService>;

/**
 * What the files module lends other modules (fleet, vendors, profile, verification, chat), wired
 * in by the container; each runs inside the caller's transaction (`tx`).
 */
export interface FileLookups {
  ownedFiles: typeof ownedFiles;
  fileRefs: typeof fileRefs;
  ownedChatAttachment: typeof ownedChatAttachment;
}
export const fileLookups: FileLookups = { ownedFiles, fileRefs, ownedChatAttachment };
