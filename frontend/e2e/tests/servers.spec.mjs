import { register } from '../register.mjs';
import spec from '../specs/servers.mjs';

register(spec);
