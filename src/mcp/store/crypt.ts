import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** seal/open/mac under a 32-byte key (the same formats in both stores). */
export function crypt(key: Buffer) {
  const macKey = createHash('sha256').update('cms-admin mac\n').update(key).digest();
  return {
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    open(sealed: string): string {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
    mac(text: string): string {
      return createHmac('sha256', macKey).update(text).digest('base64url');
    },
  };
}
