// Blobs in S3-compatible object storage (AWS S3, MinIO, Ceph, R2...), chosen with FOLIO_S3_BUCKET,
// for deployments whose blobs should not live in the database. Uploads stream from their spooled
// file in parts (lib-storage's Upload), reads stream from the object; S3 writes an object whole
// or not at all, so a reader never sees half a blob.
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { blobNotFound, checkBlobKey, type BlobStore } from './blobs.js';

export interface S3Settings {
  bucket: string;
  /** For S3-compatible servers; null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** Null to use the AWS SDK's usual sources (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Prepended to every key, so several installations can share a bucket. */
  prefix: string;
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore implements BlobStore {
  readonly tempDir: string;
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    dataDir: string,
  ) {
    this.tempDir = path.join(dataDir, 'tmp');
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials ?? undefined,
    });
  }

  async init(): Promise<this> {
    await mkdir(this.tempDir, { recursive: true });
    return this;
  }

  private objectKey(key: string): string {
    return `${this.settings.prefix}${checkBlobKey(key)}`;
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: data }));
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const upload = new Upload({ client: this.client, params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: createReadStream(localPath) } });
    await upload.done();
    await rm(localPath, { force: true });
  }

  private async open(key: string) {
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (isMissing(error)) throw blobNotFound(key);
      throw error;
    }
  }

  async get(key: string): Promise<Buffer> {
    const object = await this.open(key);
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async stream(key: string): Promise<Readable> {
    return (await this.open(key)).Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const start = `${this.objectKey(prefix)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: start, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) await this.client.send(new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
  }
}
