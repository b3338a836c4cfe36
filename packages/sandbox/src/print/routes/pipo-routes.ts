/**
 * The PIPO endpoints under /api/v{1,2}/pipo: users and sessions, projects (the user's saved designs) and
 * orders made from them. Basic authentication at BusinessPlus first; "Basic + Token" routes then need a
 * live X-PN-TOKEN of the caller's license, which each call refreshes (T11).
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import {
  PipoConvertUserBody,
  PipoCreateOrderBody,
  PipoCreateTempUserBody,
  PipoCreateUserBody,
  PipoLoginBody,
  PipoTransferUserBody,
  PipoUpdateUserBody,
} from 'punchgate/schemas/print-api';
import { requireSession, type SandboxEnv } from '../authentication.ts';
import {
  convertUser,
  createPipoUser,
  createTempUser,
  licensedStorefront,
  login,
  logout,
  transferUser,
  updateUserInfo,
} from '../customer-operations.ts';
import { createPipoOrder, findLicensedOrder, processOrder } from '../order-operations.ts';
import { pathId, readJsonBody } from '../request-input.ts';
import { pipoUserResource, projectResource } from '../resources.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { SandboxService } from '../service.ts';
import type { ProjectRecord } from '../state.ts';
import { keepAliveOf } from './keep-alive.ts';

export function pipoRoutes(service: SandboxService, basic: MiddlewareHandler<SandboxEnv>): Hono<SandboxEnv> {
  const pipo = new Hono<SandboxEnv>();
  const session = requireSession(service);
  const transferSession = requireSession(service, 'transferTokenInvalid');
  const licenseId = (c: Context<SandboxEnv>) => c.get('caller').license.id;
  const user = (c: Context<SandboxEnv>) => c.get('pipo').user;
  const ok = (c: Context<SandboxEnv>) => c.body(null, 200);

  // ---- Users and sessions ----
  pipo.post('/user/login', basic, async (c) => {
    const body = await readJsonBody(c, PipoLoginBody);
    const opened = login(service, licenseId(c), body.storefront_id, body.username, body.password);
    if (opened === undefined) throw SandboxError.of('pipoLoginFailed');
    return c.json(opened.token);
  });

  pipo.get('/user/logout', basic, session, (c) => {
    logout(service, c.get('pipo').session);
    return ok(c);
  });

  // An expired or unknown token never reaches here (403, A06), so a 200 answer is always true.
  pipo.get('/user/loggedin', basic, session, (c) => c.json(true));

  pipo.get('/user/info', basic, session, (c) => c.json(pipoUserResource(user(c), false)));

  pipo.post('/user/info', basic, session, async (c) => {
    const body = await readJsonBody(c, PipoUpdateUserBody);
    updateUserInfo(service, user(c), body, keepAliveOf(c));
    return ok(c);
  });

  pipo.post('/user/create', basic, async (c) => {
    const body = await readJsonBody(c, PipoCreateUserBody);
    licensedStorefront(service, licenseId(c), body.storefront_id);
    return c.json(pipoUserResource(createPipoUser(service, body, keepAliveOf(c)), true));
  });

  pipo.post('/user/createtemp', basic, async (c) => {
    const body = await readJsonBody(c, PipoCreateTempUserBody);
    licensedStorefront(service, licenseId(c), body.storefront_id);
    const created = createTempUser(service, body.storefront_id);
    return c.json({ ...pipoUserResource(created, true), password: created.password });
  });

  pipo.post('/user/convert', basic, session, async (c) => {
    const body = await readJsonBody(c, PipoConvertUserBody);
    return c.json(pipoUserResource(convertUser(service, user(c), body, keepAliveOf(c)), false));
  });

  pipo.post('/user/transfer', basic, transferSession, async (c) => {
    const body = await readJsonBody(c, PipoTransferUserBody);
    transferUser(service, c.get('pipo').session, user(c), body.username, body.password);
    return ok(c);
  });

  pipo.get('/user/istemp', basic, session, (c) => c.json(user(c).isTemp));

  // ---- Projects ----
  const ownProject = (c: Context<SandboxEnv>): ProjectRecord => {
    const project = service.state.projects.get(pathId(c.req.param('id'), 'projectNotFound'));
    if (project === undefined || project.deleted || project.ownerId !== user(c).id) {
      throw SandboxError.of('projectNotFound');
    }
    return project;
  };

  pipo.get('/project/all', basic, session, (c) => {
    const owner = user(c).id;
    const projects = [...service.state.projects.values()]
      .filter((p) => p.ownerId === owner && !p.deleted)
      .sort((a, b) => a.id - b.id);
    return c.json(projects.map((p) => projectResource(service.state, p)));
  });

  pipo.get('/project/:id', basic, session, (c) => c.json(projectResource(service.state, ownProject(c))));

  pipo.delete('/project/:id', basic, session, (c) => {
    ownProject(c).deleted = true;
    return ok(c);
  });

  // ---- Orders ----
  pipo.post('/order/create', basic, session, async (c) => {
    const body = await readJsonBody(c, PipoCreateOrderBody);
    return c.json(createPipoOrder(service, user(c), body.product_id, body.external_id).id);
  });

  pipo.get('/order/:id/process', basic, session, (c) => {
    const order = findLicensedOrder(service, licenseId(c), pathId(c.req.param('id'), 'orderNotFound'));
    if (order.customerId !== user(c).id) throw SandboxError.of('orderNotFound');
    processOrder(service, order);
    return ok(c);
  });

  return pipo;
}
