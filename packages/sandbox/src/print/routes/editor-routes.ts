/**
 * The editor host ({editor_url} = {base}/editor): the online editor page and its save (R14), product
 * thumbnails (R15) and the low-resolution proof download (R16, A07).
 *
 * No cookies and nothing loaded from elsewhere, so the pages work inside a procurement system's iframe;
 * the PIPO token travels in the query and the form. Saving creates a new project (a customized copy of the
 * template, owned by the token's user) every time, also when the page was opened on an existing project:
 * the interface says "the new product id is passed back".
 */
import { type Context, Hono } from 'hono';
import { escapeHtml } from 'punchgate/kernel';
import { resumeSession } from '../authentication.ts';
import { isWebUrl } from '../media/editor-params.ts';
import {
  buildReturnUrl,
  cspSourceHash,
  EDITOR_PAGE_SCRIPT,
  EDITOR_PAGE_STYLE,
  type EditorProductRef,
  type MediaDesign,
  parseEditorQuery,
  parseEditorSaveForm,
  parseThumbnailParams,
  renderEditorPage,
  renderEditorSavedPage,
  renderThumbnailPng,
} from '../media/index.ts';
import { designOfProduct, mediaDesign, mediaProduct, proofPdf } from '../print-files.ts';
import { readId } from '../request-input.ts';
import type { SandboxService } from '../service.ts';
import type { CustomerRecord, ProjectRecord, TemplateRecord } from '../state.ts';

/** The hidden form field that names the product (template or project) the page was opened on. */
const PRODUCT_FIELD = 'product';

interface EditorSubject {
  readonly template: TemplateRecord;
  readonly project: ProjectRecord | undefined;
}

/** A template of the user's storefront, or a live project of the user, by productid or epi. */
function findSubject(
  service: SandboxService,
  user: CustomerRecord,
  ref: EditorProductRef,
): EditorSubject | undefined {
  const { templates, projects } = service.state;
  if (ref.by === 'epi') {
    const wanted = ref.integrationId.toLowerCase();
    for (const template of templates.values()) {
      if (template.storefrontId === user.storefrontId && template.integrationId.toLowerCase() === wanted) {
        return { template, project: undefined };
      }
    }
    return undefined;
  }
  const template = templates.get(ref.productId);
  if (template !== undefined) {
    return template.storefrontId === user.storefrontId ? { template, project: undefined } : undefined;
  }
  const project = projects.get(ref.productId);
  if (project === undefined || project.deleted || project.ownerId !== user.id) return undefined;
  return { template: templates.get(project.templateId)!, project };
}

function messagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body>
</html>
`;
}

/** Case-insensitive query, as the editor host (an ASP.NET application) reads it. */
function queryParam(c: Context, name: string): string | undefined {
  for (const [key, value] of Object.entries(c.req.query())) if (key.toLowerCase() === name) return value;
  return undefined;
}

const bad = (c: Context, message: string) => c.html(messagePage('Bad request', message), 400);
const forbidden = (c: Context) =>
  c.html(
    messagePage('Session expired', 'The PIPO token is invalid or has expired; start again from your cart.'),
    403,
  );
const missing = (c: Context, message: string) => c.html(messagePage('Not found', message), 404);

/** A saved design becomes a new project of the user (the editor never changes a project in place). */
function saveProject(
  service: SandboxService,
  user: CustomerRecord,
  subject: EditorSubject,
  saved: MediaDesign,
): ProjectRecord {
  const { state } = service;
  const project: ProjectRecord = {
    id: state.next.product++,
    storefrontId: user.storefrontId,
    ownerId: user.id,
    templateId: subject.template.id,
    name: subject.project?.name ?? subject.template.name,
    createdOn: service.now(),
    deleted: false,
    design: {
      widthIn: saved.widthIn,
      heightIn: saved.heightIn,
      textFields: saved.textFields.map((f) => ({ name: f.name, value: f.value })),
      tags: { ...saved.tags },
    },
  };
  state.projects.set(project.id, project);
  return project;
}

export function editorRoutes(service: SandboxService): Hono {
  const editor = new Hono();
  let policy: Promise<string> | undefined;
  // Inline script and style are allowed by hash; no frame-ancestors limit, since buyers frame the editor.
  const contentSecurityPolicy = () => {
    policy ??= Promise.all([cspSourceHash(EDITOR_PAGE_SCRIPT), cspSourceHash(EDITOR_PAGE_STYLE)]).then(
      ([script, style]) =>
        `default-src 'none'; script-src ${script}; style-src ${style}; img-src 'self' data:`,
    );
    return policy;
  };
  const page = async (c: Context, html: string, status: 200 | 400 = 200) => {
    c.header('Content-Security-Policy', await contentSecurityPolicy());
    c.header('Cache-Control', 'no-store');
    return c.html(html, status);
  };

  editor.get('/online-editor', async (c) => {
    const pipo = resumeSession(service, queryParam(c, 'token'), undefined);
    let subject: EditorSubject | undefined;
    let sessionInvalid = false;
    const query = parseEditorQuery(c.req.query(), (ref) => {
      // Called once the query's own checks have passed, so a bad query is a 400 before a bad token is a 403.
      if (pipo === undefined) {
        sessionInvalid = true;
        return undefined;
      }
      subject = findSubject(service, pipo.user, ref);
      return subject && mediaProduct(subject.template);
    });
    if (sessionInvalid) return forbidden(c);
    if (!query.ok) {
      return query.error.code === 'unknown_product'
        ? missing(c, query.error.message)
        : bad(c, query.error.message);
    }
    const { template, project } = subject!;
    const q = query.value;
    return page(
      c,
      renderEditorPage({
        product: q.product,
        design: mediaDesign(template, project),
        token: q.token,
        ...(q.cru === undefined ? {} : { cru: q.cru }),
        ...(q.size === undefined ? {} : { size: q.size }),
        tags: q.tags,
        saveAction: 'online-editor/save',
        hiddenState: { [PRODUCT_FIELD]: String(project?.id ?? template.id) },
      }),
    );
  });

  editor.post('/online-editor/save', async (c) => {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      return bad(
        c,
        'The editor form must be posted as application/x-www-form-urlencoded or multipart/form-data.',
      );
    }
    const token = form.get('token');
    const pipo = resumeSession(service, typeof token === 'string' ? token : undefined, undefined);
    if (pipo === undefined) return forbidden(c);
    const productField = form.get(PRODUCT_FIELD);
    const productId = readId(typeof productField === 'string' ? productField : undefined);
    if (productId === undefined) return bad(c, 'The form does not name the product being designed.');
    const subject = findSubject(service, pipo.user, { by: 'productid', productId });
    if (subject === undefined) return missing(c, `product ${productId} does not exist`);
    const product = mediaProduct(subject.template);
    const startDesign = mediaDesign(subject.template, subject.project);
    const save = parseEditorSaveForm(form, product, startDesign);
    if (!save.ok) {
      // The page comes back with the error, keeping the return URL and the monitored tags.
      const cru = form.get('cru');
      const monitored = form.getAll('monitoredTag').filter((name) => typeof name === 'string');
      const tags = Object.fromEntries(
        product.imageTags
          .filter((t) => monitored.includes(t.name))
          .map((t) => [t.name, startDesign.tags[t.name]!]),
      );
      return page(
        c,
        renderEditorPage({
          product,
          design: startDesign,
          token: pipo.session.token,
          ...(typeof cru === 'string' && isWebUrl(cru) ? { cru } : {}),
          tags,
          saveAction: 'save',
          hiddenState: { [PRODUCT_FIELD]: String(productId) },
          errorMessage: save.error.message,
        }),
        400,
      );
    }
    const project = saveProject(service, pipo.user, subject, save.value.design);
    if (save.value.returnUrl !== undefined) {
      return c.redirect(buildReturnUrl(save.value.returnUrl, project.id, save.value.returnTags), 303);
    }
    return page(c, renderEditorSavedPage({ productName: project.name, projectId: project.id }));
  });

  editor.get('/productthumb.ashx', (c) => {
    const params = parseThumbnailParams(c.req.query());
    if (!params.ok) return c.json({ Message: params.error.message }, 400);
    const found = designOfProduct(service, params.value.productId);
    if (found === undefined || found.project?.deleted === true) {
      return c.json({ Message: `Product ${params.value.productId} not found.` }, 404);
    }
    return c.body(renderThumbnailPng(found.design, params.value) as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'image/png',
      'Cache-Control': 'no-store',
    });
  });

  editor.get('/download.ashx', async (c) => {
    const token = queryParam(c, 'token');
    const pidText = queryParam(c, 'pid');
    if (token === undefined || token === '') return bad(c, 'token is required: the PIPO token.');
    if (pidText === undefined || pidText === '') return bad(c, 'pid is required: a product or project id.');
    const pid = readId(pidText);
    if (pid === undefined) return bad(c, 'pid must be a positive integer.');
    const pipo = resumeSession(service, token, undefined);
    if (pipo === undefined) return forbidden(c);
    const subject = findSubject(service, pipo.user, { by: 'productid', productId: pid });
    if (subject === undefined) return missing(c, `product ${pid} does not exist`);
    const pdf = await proofPdf(service, mediaDesign(subject.template, subject.project));
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename=proof-${pid}.pdf`,
      'Cache-Control': 'no-store',
    });
  });

  return editor;
}
