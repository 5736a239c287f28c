export { registerMagicLinkRoutes } from './routes.js';
export {
  createMagicLinkService,
  INVALID_LINK,
  MAGIC_LINK_PER_ADDRESS,
  MAGIC_LINK_PER_IP,
  MAGIC_LINK_TTL,
  type MagicLinkService,
  type MagicLinkSignIn,
} from './service.js';
