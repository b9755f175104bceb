import { defineArea } from '../area';
import * as schemas from './proxy.schemas';
import routes from './proxy.routes';

export default defineArea({ name: 'gateway-proxy', routes, schemas: [schemas] });
