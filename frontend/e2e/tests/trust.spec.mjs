import { register } from '../register.mjs';
import spec from '../specs/trust.mjs';

register(spec);
