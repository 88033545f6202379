import { register } from '../register.mjs';
import spec from '../specs/settings.mjs';

register(spec);
