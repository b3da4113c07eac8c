import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** A 32-byte key with the id recorded beside every row it encrypts. */
export interface EncryptionKey {
  readonly id: string;
  readonly key: Buffer;
}

/** A key from its base64 form (`GATEWAY_ENCRYPTION_KEY`); its id is derived from it, never secret. */
export const encryptionKey = (base64: string): EncryptionKey => {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error('an encryption key is 32 bytes, base64-encoded');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 12), key };
};

export const newEncryptionKey = (): string => randomBytes(32).toString('base64');

/** A sealed secret as stored: the key id, and `iv.tag.ciphertext` in base64url. */
export interface Sealed {
  readonly keyId: string;
  readonly sealed: string;
}

/**
 * AES-256-GCM for secrets at rest. New rows use the current key; older keys only decrypt, so keys can
 * rotate (set the new key, list the old one in GATEWAY_ENCRYPTION_KEYS, and rows move to the new key as
 * they are next written). `context` (tenant, vendor, owner) is authenticated data: a sealed secret copied
 * into another row does not open.
 */
export class SecretBox {
  readonly #current: EncryptionKey;
  readonly #byId: ReadonlyMap<string, EncryptionKey>;

  constructor(current: EncryptionKey, older: readonly EncryptionKey[] = []) {
    this.#current = current;
    this.#byId = new Map([...older, current].map((k) => [k.id, k]));
  }

  /**
   * A box for one purpose: each key replaced by HKDF-SHA256(key, info "tool-gateway/<purpose>"), with the
   * same id. What it seals opens only in a box of the same purpose (and never as a stored secret).
   */
  forPurpose(purpose: string): SecretBox {
    const derive = (k: EncryptionKey): EncryptionKey => ({
      id: k.id,
      key: Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), `tool-gateway/${purpose}`, 32)),
    });
    return new SecretBox(
      derive(this.#current),
      [...this.#byId.values()].filter((k) => k !== this.#current).map(derive),
    );
  }

  seal(plaintext: string, context: string): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return { keyId: this.#current.id, sealed: parts.join('.') };
  }

  open(sealed: Sealed, context: string): string {
    const key = this.#byId.get(sealed.keyId);
    if (!key) throw new Error(`no encryption key with id ${sealed.keyId} (list old keys in GATEWAY_ENCRYPTION_KEYS)`);
    const [iv, tag, ciphertext] = sealed.sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    if (!iv || !tag || !ciphertext) throw new Error('a sealed secret is iv.tag.ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
