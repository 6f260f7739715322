// Unit tests of src/services/html.ts: the comment body rules of docs/api.md "Comment HTML" (allowlist sanitizing,
// link protocols, derived text and html).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commentBody, htmlFromText, sanitizeCommentHtml, textFromHtml } from '../../src/services/html.js';
import { FORBIDDEN_MARKUP } from '../helpers/security.js';

const ALLOWED = [
  'p',
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
];

/** Nothing executable or styling survives. */
function assertInert(html: string, source: string): void {
  for (const bad of [
    ...FORBIDDEN_MARKUP,
    /<img/i,
    /\son[a-z]+\s*=/i,
    /javascript:/i,
    /vbscript:/i,
    /data:/i,
    /style\s*=/i,
    /srcdoc/i,
  ]) {
    assert.doesNotMatch(html, bad, `${JSON.stringify(source)} -> ${JSON.stringify(html)}`);
  }
}

describe('sanitizeCommentHtml', () => {
  test('keeps every allowlisted formatting tag with its content', () => {
    for (const tag of ALLOWED) {
      assert.equal(sanitizeCommentHtml(`<${tag}>x</${tag}>`), `<${tag}>x</${tag}>`, tag);
    }
    assert.match(sanitizeCommentHtml('a<br>b'), /^a<br\s*\/?>b$/);
    const nested = '<blockquote><p>quote <strong>strong <em>both</em></strong></p><ul><li><code>c</code></li></ul></blockquote>';
    assert.equal(sanitizeCommentHtml(nested), nested);
  });

  test('drops tags outside the allowlist but keeps their text', () => {
    assert.equal(sanitizeCommentHtml('<section>in section</section>'), 'in section');
    assert.equal(sanitizeCommentHtml('<table><tr><td>cell</td></tr></table>'), 'cell');
    assert.equal(sanitizeCommentHtml('<font color="red">f</font><center>c</center>'), 'fc');
    assert.equal(sanitizeCommentHtml('<p>a <marquee>m</marquee> b</p>'), '<p>a m b</p>');
  });

  test('drops script, style, iframe and similar elements together with their content', () => {
    assert.equal(sanitizeCommentHtml('<p>before</p><script>alert(1)</script><p>after</p>'), '<p>before</p><p>after</p>');
    assert.equal(sanitizeCommentHtml('<style>p { color: red }</style>text'), 'text');
    assert.equal(sanitizeCommentHtml('<iframe src="https://evil.example/">fallback</iframe>ok'), 'ok');
    assert.equal(sanitizeCommentHtml('<noscript>ns</noscript><textarea>ta</textarea>ok'), 'ok');
    assert.equal(sanitizeCommentHtml('<SCRIPT type="text/javascript">x()</SCRIPT>ok'), 'ok');
    assert.equal(sanitizeCommentHtml('<img src="x" onerror="alert(1)">'), '');
    assert.equal(sanitizeCommentHtml('<object data="x"></object><embed src="y">'), '');
  });

  test('removes every attribute except href on links, src/alt/width/height on images, class and data-* on spans', () => {
    assert.equal(sanitizeCommentHtml('<p onclick="x()" style="color:red" class="c" id="i" title="t">p</p>'), '<p>p</p>');
    assert.equal(sanitizeCommentHtml('<span onmouseover="x()" data-x="1">s</span>'), '<span data-x="1">s</span>');
    assert.equal(sanitizeCommentHtml('<div class="d" data-x="1" style="x">d</div>'), '<div>d</div>');
    assert.equal(sanitizeCommentHtml('<b ONCLICK="x()">b</b>'), '<b>b</b>');
    assert.equal(
      sanitizeCommentHtml('<a href="https://ok.example/" onclick="x()" target="_blank" rel="opener" style="x">a</a>'),
      '<a href="https://ok.example/">a</a>',
    );
  });

  test('keeps http, https and mailto hrefs', () => {
    assert.equal(
      sanitizeCommentHtml('<a href="http://example.com/path?q=1">h</a>'),
      '<a href="http://example.com/path?q=1">h</a>',
    );
    assert.equal(sanitizeCommentHtml('<a href="https://example.com/">s</a>'), '<a href="https://example.com/">s</a>');
    assert.equal(sanitizeCommentHtml('<a href="mailto:someone@example.com">m</a>'), '<a href="mailto:someone@example.com">m</a>');
    assert.equal(sanitizeCommentHtml('<a href="HTTPS://EXAMPLE.COM/">u</a>'), '<a href="HTTPS://EXAMPLE.COM/">u</a>');
    assert.equal(
      sanitizeCommentHtml('<a href="https://e.example/?a=1&amp;b=2">q</a>'),
      '<a href="https://e.example/?a=1&amp;b=2">q</a>',
    );
  });

  test('links with any other href lose the href but keep their text', () => {
    const hrefs = [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java&#x09;script:alert(1)',
      'java\nscript:alert(1)',
      '&#106;avascript:alert(1)',
      'javascript&colon;alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://files.example/',
      'file:///etc/passwd',
      '/relative/path',
      'relative.html',
      '../up',
      '#fragment',
      '?query=1',
      '//protocol-relative.example/',
      'tel:+123',
      '',
    ];
    for (const href of hrefs) {
      const out = sanitizeCommentHtml(`<a href="${href}">link</a>`);
      assert.equal(out, '<a>link</a>', `href ${JSON.stringify(href)} -> ${out}`);
    }
  });

  test('escapes text so it cannot become markup', () => {
    assert.equal(sanitizeCommentHtml('a < b > c & d'), 'a &lt; b &gt; c &amp; d');
    assert.equal(sanitizeCommentHtml('<p>1 &lt; 2</p>'), '<p>1 &lt; 2</p>');
    assert.equal(sanitizeCommentHtml(''), '');
    assert.equal(sanitizeCommentHtml('plain'), 'plain');
  });

  test('closes unclosed tags and drops stray closing tags', () => {
    assert.equal(sanitizeCommentHtml('<p><b>bold'), '<p><b>bold</b></p>');
    const stray = sanitizeCommentHtml('text</p></div>');
    assert.ok(stray.startsWith('text'), stray);
    assert.doesNotMatch(stray, /div/, stray);
  });

  test('classic XSS vectors all come out inert', () => {
    const vectors = [
      '<scr<script>ipt>alert(1)</scr</script>ipt>',
      '<<script>script>alert(1)<</script>/script>',
      '<svg/onload=alert(1)>',
      '<svg><script>alert(1)</script></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<form action="javascript:alert(1)"><input type=submit></form>',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<base href="javascript:alert(1)//">',
      '<link rel=stylesheet href="javascript:alert(1)">',
      '<body onload=alert(1)>',
      '<!--<script>alert(1)</script>-->',
      '<![CDATA[<script>alert(1)</script>]]>',
      '"><img src=x onerror=alert(1)>',
      '<a href="javas\u0000cript:alert(1)">x</a>',
      '<a href="\u0001javascript:alert(1)">x</a>',
      '<template><script>alert(1)</script></template>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    ];
    for (const v of vectors) assertInert(sanitizeCommentHtml(v), v);
  });

  test('is idempotent: sanitizing sanitized output changes nothing', () => {
    for (const html of [
      '<p>a <b>b</b> <a href="https://x.example/">l</a></p>',
      '<a href="javascript:x">j</a><script>s</script>t',
      'a &amp; b &lt; c',
    ]) {
      const once = sanitizeCommentHtml(html);
      assert.equal(sanitizeCommentHtml(once), once, html);
    }
  });
});

describe('textFromHtml', () => {
  test('strips markup and keeps the text in order', () => {
    assert.equal(textFromHtml('<p>Hello <b>big</b> <i>world</i></p>'), 'Hello big world');
    assert.equal(textFromHtml('no markup'), 'no markup');
    assert.equal(textFromHtml(''), '');
    assert.equal(textFromHtml('<a href="https://x.example/">link text</a>'), 'link text');
  });

  test('decodes entities', () => {
    assert.equal(textFromHtml('Tom &amp; Jerry'), 'Tom & Jerry');
    assert.equal(textFromHtml('&lt;script&gt;alert(1)&lt;/script&gt;'), '<script>alert(1)</script>');
    assert.equal(textFromHtml('&quot;q&quot; &#39;s&#39; &apos;a&apos;'), "\"q\" 's' 'a'");
    assert.equal(textFromHtml('&#169; &#xA9; &copy;'), '© © ©');
    assert.equal(textFromHtml('&#x1F600;&#128512;'), '😀😀');
    assert.equal(textFromHtml('a&nbsp;b'), 'a\u00a0b');
    assert.equal(textFromHtml('&amp;lt;'), '&lt;', 'decoded once, not twice');
  });

  test('on sanitized html the text of dropped elements is gone', () => {
    assert.equal(textFromHtml(sanitizeCommentHtml('<p>keep</p><script>alert(1)</script><style>p{}</style>')), 'keep');
  });
});

describe('htmlFromText', () => {
  test('escapes the text into one paragraph', () => {
    assert.equal(htmlFromText('hello'), '<p>hello</p>');
    assert.equal(htmlFromText(''), '<p></p>');
    assert.equal(htmlFromText('a < b > c & d " e \' f'), '<p>a &lt; b &gt; c &amp; d &quot; e &#39; f</p>');
    assert.equal(htmlFromText('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    assert.equal(htmlFromText('&amp;'), '<p>&amp;amp;</p>', 'text that looks like an entity is escaped, not passed through');
    assert.equal(htmlFromText('😀 ü'), '<p>😀 ü</p>');
  });

  test('round trip: the text of the derived html is the original text', () => {
    for (const text of [
      'plain',
      'a < b && c > d',
      '"quoted" \'single\'',
      '&lt;not an entity&gt;',
      '<b>not bold</b>',
      '😀 & ©',
      '',
    ]) {
      assert.equal(textFromHtml(htmlFromText(text)), text, text);
    }
  });

  test('the derived html is already clean: sanitizing it keeps one paragraph with the same text', () => {
    for (const text of ['x', '<script>alert(1)</script>', 'a & b', '"\'']) {
      const clean = sanitizeCommentHtml(htmlFromText(text));
      assert.match(clean, /^<p>[^<>]*<\/p>$/, clean);
      assert.equal(textFromHtml(clean), text, text);
    }
  });
});

describe('commentBody', () => {
  test('html only: sanitized html and text derived from it', () => {
    assert.deepEqual(commentBody({ commentHtml: '<p onclick="x()">Hi &amp; <b>bye</b></p><script>alert(1)</script>' }), {
      html: '<p>Hi &amp; <b>bye</b></p>',
      text: 'Hi & bye',
    });
    assert.deepEqual(
      commentBody({ commentHtml: '<p>x</p>', commentText: null }),
      { html: '<p>x</p>', text: 'x' },
      'null text means absent',
    );
    assert.deepEqual(commentBody({ commentHtml: '<a href="javascript:alert(1)">click</a>' }), {
      html: '<a>click</a>',
      text: 'click',
    });
  });

  test('text only: html is the escaped text in a paragraph', () => {
    assert.deepEqual(commentBody({ commentText: 'a < b' }), { html: '<p>a &lt; b</p>', text: 'a < b' });
    assert.deepEqual(commentBody({ commentText: '<img src=x onerror=alert(1)>', commentHtml: null }), {
      html: '<p>&lt;img src=x onerror=alert(1)&gt;</p>',
      text: '<img src=x onerror=alert(1)>',
    });
  });

  test('both: html sanitized, text kept as given', () => {
    assert.deepEqual(commentBody({ commentHtml: '<p>rich <script>x</script><b>text</b></p>', commentText: 'my plain version' }), {
      html: '<p>rich <b>text</b></p>',
      text: 'my plain version',
    });
  });

  test('derived text drops script and style content and decodes entities', () => {
    const { text } = commentBody({
      commentHtml: '<style>.x{}</style><p>5 &gt; 3 &amp;&amp; 2 &lt; 4</p><script>var a = "<b>";</script>',
    });
    assert.equal(text, '5 > 3 && 2 < 4');
  });

  test('the stored html is always sanitized', () => {
    for (const commentHtml of [
      '<svg onload=alert(1)>',
      '<iframe src=x></iframe>',
      '<p style="x">s</p>',
      '<a href="/rel">r</a>',
    ]) {
      assertInert(commentBody({ commentHtml }).html, commentHtml);
    }
    assert.equal(commentBody({ commentHtml: '<a href="/rel">r</a>' }).html, '<a>r</a>');
  });

  test('div, mention spans and images from absolute http(s) URLs; nothing that runs', () => {
    assert.equal(sanitizeCommentHtml('<div><p>block</p></div>'), '<div><p>block</p></div>');
    assert.equal(
      sanitizeCommentHtml('<span class="mention" data-user-id="u1" data-kind="user">@Ann</span>'),
      '<span class="mention" data-user-id="u1" data-kind="user">@Ann</span>',
    );
    assert.equal(
      sanitizeCommentHtml('<img src="https://cdn.example/a.png" alt="A" width="10" height="20" title="t">'),
      '<img src="https://cdn.example/a.png" alt="A" width="10" height="20" />',
    );
    assert.equal(sanitizeCommentHtml('<img src="http://cdn.example/a.png">'), '<img src="http://cdn.example/a.png" />');
    // An image that cannot load from an absolute http(s) URL goes whole, with everything it carried.
    for (const img of [
      '<img src="javascript:alert(1)">',
      '<img src="data:image/png;base64,AAAA">',
      '<img src="//evil.example/x.png">',
      '<img src="/relative.png">',
      '<img src="x" onerror="alert(1)">',
      '<img srcset="https://e.example/1.png 1x">',
      '<img>',
      '<img src=" jAvAsCrIpT:alert(1)">',
    ]) {
      assert.equal(sanitizeCommentHtml(img), '', img);
    }
    const attrs = sanitizeCommentHtml('<img src="https://e.example/i.png" onerror="x()" style="x" srcset="https://e/1.png 1x">');
    assert.equal(attrs, '<img src="https://e.example/i.png" />');
    // A class is class names: one holding markup goes. A data-* value or an alt naming a script URL
    // goes too, however it is spelled; width and height are numbers.
    assert.equal(sanitizeCommentHtml('<span class="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">x</span>'), '<span>x</span>');
    assert.equal(
      sanitizeCommentHtml(
        '<span class="m" data-a="&#106;avascript:x" data-b="java&#x0A;script:x" data-c="ok" data-d="&lt;script&gt;x">x</span>',
      ),
      '<span class="m" data-c="ok">x</span>',
    );
    assert.equal(
      sanitizeCommentHtml('<img src="https://e.example/i.png" width="javascript:x" height="1 onerror=x" alt="vbscript:x">'),
      '<img src="https://e.example/i.png" />',
    );
  });
});
