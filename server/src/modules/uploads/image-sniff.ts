/**
 * What an uploaded image really is, read from its first bytes (magic numbers), never from the declared
 * content type or a file name. Only raster formats every e-mail client shows are accepted: PNG, JPEG, GIF and
 * WebP. SVG is refused on purpose (it is XML that can carry script), as is anything else.
 */
export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;

export type ImageContentType = keyof typeof IMAGE_TYPES;
export type ImageExtension = (typeof IMAGE_TYPES)[ImageContentType];

export interface SniffedImage {
  contentType: ImageContentType;
  extension: ImageExtension;
  width: number | null;
  height: number | null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function startsWith(buf: Buffer, bytes: Buffer | number[], offset = 0): boolean {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  return buf.length >= offset + b.length && buf.subarray(offset, offset + b.length).equals(b);
}

function ascii(buf: Buffer, start: number, end: number): string {
  return buf.length >= end ? buf.toString('latin1', start, end) : '';
}

function dimensions(width: number, height: number): { width: number | null; height: number | null } {
  return width > 0 && height > 0 ? { width, height } : { width: null, height: null };
}

function pngSize(buf: Buffer) {
  // Signature, then the IHDR chunk: length(4) "IHDR" width(4) height(4).
  if (buf.length < 24 || ascii(buf, 12, 16) !== 'IHDR') return null;
  return dimensions(buf.readUInt32BE(16), buf.readUInt32BE(20));
}

function gifSize(buf: Buffer) {
  if (buf.length < 10) return null;
  return dimensions(buf.readUInt16LE(6), buf.readUInt16LE(8));
}

/** Walks JPEG markers to the first start-of-frame (SOF0–SOF15 but DHT/JPG/DAC), which holds the size. */
function jpegSize(buf: Buffer) {
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1] as number;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    const length = buf.readUInt16BE(i + 2);
    if (length < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 9 > buf.length) return null;
      return dimensions(buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5));
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data or end before any frame header
    i += 2 + length;
  }
  return null;
}

function webpSize(buf: Buffer) {
  const chunk = ascii(buf, 12, 16);
  if (chunk === 'VP8 ' && buf.length >= 30) {
    // Key frame start code 9d 01 2a, then 14-bit width and height.
    if (!startsWith(buf, [0x9d, 0x01, 0x2a], 23)) return null;
    return dimensions(buf.readUInt16LE(26) & 0x3fff, buf.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L' && buf.length >= 25) {
    if (buf[20] !== 0x2f) return null;
    const bits = buf.readUInt32LE(21);
    return dimensions((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && buf.length >= 30) {
    return dimensions(buf.readUIntLE(24, 3) + 1, buf.readUIntLE(27, 3) + 1);
  }
  return null;
}

/** The image's real type and, when its header says so, its size in pixels; null when it is not an accepted image. */
export function sniffImage(buf: Buffer): SniffedImage | null {
  const found = (contentType: ImageContentType, size: { width: number | null; height: number | null } | null) =>
    size ? { contentType, extension: IMAGE_TYPES[contentType], ...size } : null;
  if (startsWith(buf, PNG_SIGNATURE)) return found('image/png', pngSize(buf));
  if (startsWith(buf, [0xff, 0xd8, 0xff])) {
    return found('image/jpeg', jpegSize(buf) ?? { width: null, height: null });
  }
  const gif = ascii(buf, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return found('image/gif', gifSize(buf));
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') {
    return found('image/webp', webpSize(buf) ?? { width: null, height: null });
  }
  return null;
}

/** A rough guess of what a refused file is, for a precise pt-BR message (SVG gets its own explanation). */
export function looksLikeSvg(buf: Buffer): boolean {
  const head = buf
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.includes('<svg') || (head.startsWith('<?xml') && head.includes('svg'));
}

export function contentTypeForExtension(ext: string): ImageContentType | null {
  for (const [type, e] of Object.entries(IMAGE_TYPES)) if (e === ext) return type as ImageContentType;
  return null;
}
