import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { signV4 } from './s3-storage';

describe('signV4', () => {
  it('matches the AWS documentation example (GET object with Range)', () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html — "Example: GET Object".
    const headers = signV4({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      body: Buffer.alloc(0),
      region: 'us-east-1',
      service: 's3',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

describe('S3 configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/carteiro-config-test' } as const;
  it('uses the local directory unless every required S3_* is set, and refuses a partial set', () => {
    const local = loadConfig({ ...base });
    expect(local.s3).toBeNull();
    expect(local.UPLOADS_DIR).toBe('/tmp/carteiro-config-test/uploads');
    expect(local.UPLOAD_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(local.metricsAccess).toBe('loopback');
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b' })).toThrow(/S3_ENDPOINT/);
    const s3 = loadConfig({
      ...base,
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'https://s3.sa-east-1.amazonaws.com/',
      S3_REGION: 'sa-east-1',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      METRICS_ENABLED: 'false',
    });
    expect(s3.s3).toMatchObject({
      endpoint: 'https://s3.sa-east-1.amazonaws.com',
      publicUrl: 'https://s3.sa-east-1.amazonaws.com/b',
    });
    expect(s3.metricsAccess).toBe('off');
  });
});
