/** Registers Redis Cluster's and Sentinel's models with the topology (deployment_models.ts). */
import { Cluster } from './cluster';
import { provideDeploymentModels } from './deployment_models';
import { Sentinels } from './sentinel';

provideDeploymentModels({ Cluster, Sentinels });
