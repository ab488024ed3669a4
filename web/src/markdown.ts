// An agent's long description: Markdown (GitHub flavour) turned into HTML by marked, then sanitised
// by DOMPurify, so an owner can format it but not run script or style the page. Links open in a new
// tab without passing on who sent the visitor. Raw HTML in the Markdown is shown as text, not parsed
// (so not even the sanitiser's parse meets an inline event handler, which the page's CSP would report).
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const marked = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

export function markdownToHtml(source: string): string {
  const html = marked.parse(source, { async: false });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}
