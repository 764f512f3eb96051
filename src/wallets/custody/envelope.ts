/**
 * AES-256-GCM envelope encryption of wallet keys at rest.
 *
 * Each key is encrypted with its own random 256-bit data key (DEK); the DEK is encrypted with the master
 * key (KEK, from MASTER_KEY or DATA_DIR/master-key). Both encryptions bind the wallet id and address as
 * additional authenticated data, so an envelope copied onto another wallet row fails to open instead of
 * signing for the wrong wallet. `kid` is a fingerprint of the master key, so a wrong master key is
 * reported as such rather than as a corrupt envelope. Rotating the master key re-wraps only DEKs.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export interface Envelope {
  v: 1;
  alg: "A256GCM";
  kid: string;
  dek: { iv: string; ct: string; tag: string };
  key: { iv: string; ct: string; tag: string };
}

export class MasterKey {
  readonly kid: string;
  private readonly key: Buffer;

  constructor(hex: string) {
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("the master key must be 64 hex digits (32 bytes)");
    this.key = Buffer.from(hex, "hex");
    this.kid = createHash("sha256").update("arbiter.master-key.v1").update(this.key).digest("hex").slice(0, 16);
  }

  /** Never serialise the key (pino, JSON.stringify, util.inspect). */
  toJSON(): string {
    return `[MasterKey ${this.kid}]`;
  }

  wrap(secret: Uint8Array, aad: string): Envelope {
    const dek = randomBytes(32);
    try {
      return { v: 1, alg: "A256GCM", kid: this.kid, dek: seal(this.key, dek, aad), key: seal(dek, secret, aad) };
    } finally {
      dek.fill(0);
    }
  }

  unwrap(env: Envelope, aad: string): Buffer {
    if (env.v !== 1 || env.alg !== "A256GCM") throw new Error("unsupported key envelope");
    if (env.kid !== this.kid) throw new Error(`key envelope was sealed with master key ${env.kid}, not the configured ${this.kid}`);
    const dek = open(this.key, env.dek, aad);
    try {
      return open(dek, env.key, aad);
    } finally {
      dek.fill(0);
    }
  }
}

function seal(key: Buffer, plain: Uint8Array, aad: string) {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  c.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([c.update(plain), c.final()]);
  return { iv: iv.toString("base64"), ct: ct.toString("base64"), tag: c.getAuthTag().toString("base64") };
}

function open(key: Buffer, box: { iv: string; ct: string; tag: string }, aad: string): Buffer {
  const d = createDecipheriv("aes-256-gcm", key, Buffer.from(box.iv, "base64"));
  d.setAAD(Buffer.from(aad, "utf8"));
  d.setAuthTag(Buffer.from(box.tag, "base64"));
  return Buffer.concat([d.update(Buffer.from(box.ct, "base64")), d.final()]);
}
