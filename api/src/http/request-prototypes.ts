import http from 'node:http';
import type { Express } from 'express';

/**
 * Requests and responses made with the app's prototypes from the start (issue 52: the 500/s tail).
 *
 * Express 5 gives each request and response its app's prototype as it arrives
 * (`Object.setPrototypeOf(req, app.request)` in app.handle). In V8 that costs twice: every object
 * whose prototype was changed stayed alive, with all it references, through each young-generation
 * collection until a full one (each request's objects were promoted: a bare Express route at 500
 * requests/s kept ~1.8 MB alive across each scavenge, plain `http` ~5 KB), and each one then built
 * its properties on hidden classes of its own, allocated in the old generation (--log-maps: a new
 * map per property of every request). The API at 500 readings/s promoted 12.4 MB/s and ran a full
 * collection every ~3.5 s, the p99 of that row; with the requests made here, 1.9 MB/s and one every
 * ~19 s (bench/README.md, 'Express's prototypes').
 *
 * `serverOptions` goes to http.createServer, which builds each request and response with these
 * constructors; Express's own setPrototypeOf then finds the prototype already set and V8 skips it.
 * `use(app)` points them at the app's prototypes before the app takes requests (until then they
 * build plain ones, for the server's answers while it starts).
 */
export function requestPrototypes(): { serverOptions: http.ServerOptions; use(app: Express): void } {
  // Plain constructor functions that run Node's own on `this` (both are plain functions in Node):
  // `new` then builds every object from one map per prototype. Reflect.construct with these as
  // new.target made V8 derive a fresh map for each request (its map cache went back and forth
  // between the two constructors): every request's properties then made new maps (~25 KB a request
  // of old-generation garbage, measured with --log-maps).
  const IncomingMessage = http.IncomingMessage as unknown as (this: unknown, socket: unknown) => void;
  const ServerResponse = http.ServerResponse as unknown as (this: unknown, req: unknown, options: unknown) => void;
  function AppRequest(this: unknown, socket: unknown) {
    IncomingMessage.call(this, socket);
  }
  function AppResponse(this: unknown, req: unknown, options: unknown) {
    ServerResponse.call(this, req, options);
  }
  AppRequest.prototype = http.IncomingMessage.prototype;
  AppResponse.prototype = http.ServerResponse.prototype;
  return {
    serverOptions: {
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
    },
    use(app) {
      AppRequest.prototype = app.request;
      AppResponse.prototype = app.response;
    },
  };
}
