import { register } from '../register.mjs';
import spec from '../specs/remote-content.mjs';

register(spec);
