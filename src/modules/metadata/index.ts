export { registerMetadataRoutes, securityTxt } from './routes.js';
