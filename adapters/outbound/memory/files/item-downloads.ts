import { contentTypeOf } from '../../../../domain/files/item.js';
import type { DownloadSpecification } from '../../../../domain/files/transfer.js';
import { invalidInput, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type TaskEither } from '../../../../domain/shared/fp.js';
import type { Clock } from '../../../../ports/clock.js';
import type { FilePayload, TransferRefusal } from '../../../../ports/file-transfers.js';
import type { LinkSigner } from '../../../../ports/link-signer.js';
import type { ItemTree } from './item-tree.js';
import { refuse } from './transfer-refusal.js';

// Downloads from the in-memory tree: a signed address for one version or for all of them (as a zip), and the
// bytes behind that address.

export class ItemDownloads {
  constructor(
    private readonly tree: ItemTree,
    private readonly o: { readonly clock: Clock; readonly signer: LinkSigner; readonly downloadLinkTtlMs: number },
  ) {}

  link(id: string, o: { includeAllVersions: boolean }): TaskEither<GatewayError, DownloadSpecification> {
    const found = this.tree.live(id);
    if (E.isLeft(found)) return TE.left(found.left);
    const node = found.right;
    if (node.type !== 'File') {
      return TE.left(
        invalidInput(
          `"${node.name}" is a folder. getDownloadUrl takes a file id; list the folder with files_listChildren and download its files.`,
          'item_id',
          'file id',
        ),
      );
    }
    const version = o.includeAllVersions ? 'all' : String(node.versions.at(-1)!.no);
    const expires = new Date(this.o.clock.now().getTime() + this.o.downloadLinkTtlMs);
    const url = this.o.signer.sign(`/files/transfer/download/${node.id}/${version}`, expires);
    return TE.right({
      DownloadToken: new URL(url).searchParams.get('sig') ?? '',
      DownloadUrl: url,
      ExpiresAt: expires.toISOString(),
      FileName: o.includeAllVersions ? `${node.name.replace(/\.[^.]+$/, '')} (all versions).zip` : node.name,
      ContentType: o.includeAllVersions ? 'application/zip' : contentTypeOf(node.name),
    });
  }

  read(itemId: string, version: number | 'all'): TaskEither<TransferRefusal, FilePayload> {
    const node = this.tree.nodes.get(itemId);
    if (!node || this.tree.isGone(node) || node.type !== 'File')
      return TE.left(
        refuse(
          404,
          'NOT_FOUND',
          'The file no longer exists (it may be in the recycle bin). Find it again with files_searchItems.',
        ),
      );
    if (version === 'all') {
      const stem = node.name.replace(/\.[^.]+$/, '');
      const ext = node.name.slice(stem.length);
      return TE.right({
        fileName: `${stem} (all versions).zip`,
        contentType: 'application/zip',
        zip: true,
        entries: node.versions.map((v) => ({
          name: `v${v.no} - ${stem}${ext}`,
          bytes: v.bytes,
          date: new Date(v.created),
        })),
      });
    }
    const v = node.versions.find((x) => x.no === version);
    if (!v)
      return TE.left(
        refuse(
          410,
          'GONE',
          `Version ${version} of "${node.name}" was deleted. Ask files_getDownloadUrl for a new address.`,
        ),
      );
    return TE.right({
      fileName: node.name,
      contentType: contentTypeOf(node.name),
      zip: false,
      md5: v.md5,
      entries: [{ name: node.name, bytes: v.bytes, date: new Date(v.created) }],
    });
  }
}
