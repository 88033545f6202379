import { register } from '../register.mjs';
import spec from '../specs/oauth.mjs';

register(spec);
