import { register } from '../register.mjs';
import spec from '../specs/views.mjs';

register(spec);
