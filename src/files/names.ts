// What a file is called and what type it is said to be, made safe to store and to send back in headers.

// No path, no control or bidi characters, no quotes; at most 200 characters (keeping the extension).
export function sanitizeFilename(raw: string | null | undefined): string {
  let name = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"<>:|?*]/g, '').trim();
  name = name.replace(/^\.+/, '');
  if (name.length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  return name || 'file';
}

// type/subtype with no parameters, lower-cased; anything else is plain bytes.
export function normalizeMediaType(raw: string | null | undefined): string {
  const type = (raw ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/.test(type) ? type : 'application/octet-stream';
}

// Types a browser may render as a page or run as script: always downloaded, never shown inline.
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/xsl|application\/xslt\+xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript|application\/pdf|text\/vtt|multipart\/.*|message\/.*)$|\+xml$/;

// Types shown in the page (image preview, audio and video players, plain text).
const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain)$/;

export function dispositionOf(mediaType: string, filename: string): string {
  const kind = INLINE.test(mediaType) && !ACTIVE.test(mediaType) ? 'inline' : 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
