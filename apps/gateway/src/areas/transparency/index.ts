import { defineArea } from '../area';
import * as transparencySchemas from './transparency.schemas';
import routes from './transparency.routes';

export default defineArea({
  name: 'transparency',
  routes,
  schemas: [transparencySchemas],
});
