// Comment bodies: sanitize HTML on the way in, and derive whichever of text/html the writer left out.
import sanitize from 'sanitize-html';
import { Parser } from 'htmlparser2';

const ALLOWED_LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const ALLOWED_IMAGE_PROTOCOLS = new Set(['http:', 'https:']);

const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    'p',
    'br',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'span',
    'a',
    // docs/api.md "Comment HTML": imported markup keeps its blocks, images and mention spans.
    'div',
    'img',
  ],
  allowedAttributes: { a: ['href'], img: ['src', 'alt', 'width', 'height'], span: ['class', 'data-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // An image whose src did not pass (below) shows nothing: it goes whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  // Elements whose content is code or chrome, not prose: dropped whole, never turned into text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'template', 'title', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    // Only absolute http, https and mailto links keep their href; relative and other links lose it.
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      return { tagName, attribs: href !== undefined && isAbsolute(href, ALLOWED_LINK_PROTOCOLS) ? { ...rest, href } : rest };
    },
    // An image loads only from an absolute http or https URL: never data:, javascript:, a relative or
    // a protocol-relative one (which would load from wherever the comment is shown).
    img: (tagName, attribs) => {
      const { src, ...rest } = keepIf(attribs, IMAGE_ATTRIBUTE_RULES);
      return { tagName, attribs: src !== undefined && isAbsolute(src, ALLOWED_IMAGE_PROTOCOLS) ? { src, ...rest } : rest };
    },
    // Mention markup: its class is class names, and no data-* value smuggles a script URL to whatever
    // code reads it later (docs/api.md, "Comment HTML": javascript: never comes back out).
    span: (tagName, attribs) => ({ tagName, attribs: keepIf(attribs, SPAN_ATTRIBUTE_RULES) }),
  },
};

/** A value that names a script or data URL, however it is spelled (entities are decoded by then). */
const SCRIPT_URL = /(?:java|vb)script:|data:/i;
/** A value without the spaces and control characters a browser skips inside a URL's scheme. */
const squeezed = (value: string) => Array.from(value, (c) => (c.charCodeAt(0) > 0x20 ? c : '')).join('');
/** A value that names no script URL and holds no markup (code that reads it later may put it in a page). */
const inert = (value: string) => !SCRIPT_URL.test(squeezed(value)) && !/[<>]/.test(value);

type AttributeRule = (name: string, value: string) => boolean;
const IMAGE_ATTRIBUTE_RULES: AttributeRule = (name, value) =>
  name === 'src' || ((name === 'width' || name === 'height') && /^\d{1,5}%?$/.test(value)) || (name === 'alt' && inert(value));
const SPAN_ATTRIBUTE_RULES: AttributeRule = (name, value) =>
  name === 'class' ? /^[\w\s-]*$/.test(value) : name.startsWith('data-') && inert(value);

function keepIf(attribs: sanitize.Attributes, rule: AttributeRule): sanitize.Attributes {
  return Object.fromEntries(Object.entries(attribs).filter(([name, value]) => rule(name, value)));
}

function isAbsolute(url: string, protocols: ReadonlySet<string>): boolean {
  try {
    return protocols.has(new URL(url.trim()).protocol);
  } catch {
    return false;
  }
}

export function sanitizeCommentHtml(html: string): string {
  return sanitize(html, OPTIONS);
}

/** The text content of (already sanitized) HTML, entities decoded. */
export function textFromHtml(html: string): string {
  let text = '';
  const parser = new Parser(
    {
      ontext: (t) => {
        text += t;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function htmlFromText(text: string): string {
  return `<p>${text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)}</p>`;
}

/** Both forms of a comment body from whatever the writer sent (at least one of them). */
export function commentBody(input: { commentHtml?: string | null; commentText?: string | null }): { html: string; text: string } {
  if (input.commentHtml != null) {
    const html = sanitizeCommentHtml(input.commentHtml);
    return { html, text: input.commentText ?? textFromHtml(html) };
  }
  const text = input.commentText ?? '';
  return { html: htmlFromText(text), text };
}
