// Comment bodies: sanitize HTML on the way in, and derive whichever of text/html the writer left out.
import sanitize from 'sanitize-html';
import { Parser } from 'htmlparser2';

const ALLOWED_LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

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
  ],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // Elements whose content is code or chrome, not prose: dropped whole, never turned into text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'template', 'title', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    // Only absolute http, https and mailto links keep their href; relative and other links lose it.
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      return { tagName, attribs: href !== undefined && isAllowedLink(href) ? { ...rest, href } : rest };
    },
  },
};

function isAllowedLink(href: string): boolean {
  try {
    return ALLOWED_LINK_PROTOCOLS.has(new URL(href.trim()).protocol);
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
