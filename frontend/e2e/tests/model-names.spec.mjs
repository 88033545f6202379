import { register } from '../register.mjs';
import spec from '../specs/model-names.mjs';

register(spec);
