import { describe, expect, it } from 'vitest';
import { looksLikeSvg, sniffImage } from './image-sniff';
import { JPEG_HEADER, makePng, TINY_GIF } from './test-images';

describe('sniffImage', () => {
  it('recognises PNG, JPEG and GIF by their bytes, with the size', () => {
    expect(sniffImage(makePng(7, 5))).toEqual({ contentType: 'image/png', extension: 'png', width: 7, height: 5 });
    expect(sniffImage(JPEG_HEADER)).toEqual({ contentType: 'image/jpeg', extension: 'jpg', width: 3, height: 2 });
    expect(sniffImage(TINY_GIF)).toEqual({ contentType: 'image/gif', extension: 'gif', width: 1, height: 1 });
  });

  it('recognises lossy, lossless and extended WebP', () => {
    const riff = (chunk: string, payload: number[]) => {
      const body = Buffer.concat([Buffer.from(`WEBP${chunk}`, 'latin1'), Buffer.alloc(4), Buffer.from(payload)]);
      const head = Buffer.alloc(8);
      head.write('RIFF', 0, 'latin1');
      head.writeUInt32LE(body.length, 4);
      return Buffer.concat([head, body]);
    };
    // VP8: frame tag (3), start code 9d 01 2a, width 16 LE, height 9 LE.
    const vp8 = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 16, 0, 9, 0, 0, 0]);
    expect(sniffImage(vp8)).toMatchObject({ contentType: 'image/webp', width: 16, height: 9 });
    // VP8L: signature 0x2f, then 14 bits width-1 and 14 bits height-1.
    const bits = (20 - 1) | ((10 - 1) << 14);
    const vp8l = riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]);
    expect(sniffImage(vp8l)).toMatchObject({ contentType: 'image/webp', width: 20, height: 10 });
    // VP8X: flags (4), canvas width-1 (3 LE), height-1 (3 LE).
    const vp8x = riff('VP8X', [0, 0, 0, 0, 99, 0, 0, 49, 0, 0]);
    expect(sniffImage(vp8x)).toMatchObject({ contentType: 'image/webp', width: 100, height: 50 });
  });

  it('refuses SVG, HTML, text and truncated images', () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(sniffImage(svg)).toBeNull();
    expect(looksLikeSvg(svg)).toBe(true);
    expect(sniffImage(Buffer.from('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffImage(Buffer.from('GIF8'))).toBeNull();
    expect(sniffImage(makePng(2, 2).subarray(0, 12))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
});
