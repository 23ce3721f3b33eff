// The pod-level Volume (core v1) with every source Kubernetes v1.32 has; sources a PersistentVolume also
// has, and the claim spec of an ephemeral volume's template, are the PersistentVolume kinds' own types. Field numbers are those of Kubernetes' generated.proto;
// fields Go inlines (a LocalObjectReference's `name`) carry the number of the inlined message's field.
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector, LocalObjectReference } from '../meta/v1.ts';
import { withProto, inlined } from './schema-helpers.ts';
import {
  HostPathVolumeSource, GCEPersistentDiskVolumeSource, AWSElasticBlockStoreVolumeSource, NFSVolumeSource, FlockerVolumeSource, FCVolumeSource,
  VsphereVirtualDiskVolumeSource, QuobyteVolumeSource, AzureDiskVolumeSource, PhotonPersistentDiskVolumeSource, PortworxVolumeSource,
} from './persistentvolume-sources.ts';
import { PersistentVolumeClaimSpec } from './persistentvolumeclaim.ts';

const MODE_BITS = 'Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits.';
const READ_ONLY = 'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.';
const FS_TYPE = 'fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.';
const ITEMS = "items if unspecified, each key-value pair in the Data field of the referenced object will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present. If a key is specified which is not present, the volume setup will error unless it is marked optional. Paths must be relative and may not contain the '..' path or start with '..'.";
const LOCAL_NAME = 'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://platform.io/docs/concepts/overview/working-with-objects/names/#names';

export const KeyToPath = S.object({
  key: S.string({ proto: 1, description: 'key is the key to project.' }),
  path: S.string({ proto: 2, description: "path is the relative path of the file to map the key to. May not be an absolute path. May not contain the path element '..'. May not start with the string '..'." }),
  mode: S.int32({ proto: 3, description: `mode is Optional: mode bits used to set permissions on this file. ${MODE_BITS} If not specified, the volume defaultMode will be used.` }),
}, { required: ['key', 'path'], ref: 'core.v1.KeyToPath', description: 'Maps a string key to a path within a volume.' });

export const ObjectFieldSelector = S.object({
  apiVersion: S.string({ proto: 1, description: 'Version of the schema the FieldPath is written in terms of, defaults to "v1".' }),
  fieldPath: S.string({ proto: 2, description: 'Path of the field to select in the specified API version.' }),
}, { atomic: true, required: ['fieldPath'], ref: 'core.v1.ObjectFieldSelector', description: 'ObjectFieldSelector selects an APIVersioned field of an object.' });

export const ResourceFieldSelector = S.object({
  containerName: S.string({ proto: 1, description: 'Container name: required for volumes, optional for env vars' }),
  resource: S.string({ proto: 2, description: 'Required: resource to select' }),
  divisor: S.quantity({ proto: 3, description: 'Specifies the output format of the exposed resources, defaults to "1"' }),
}, { atomic: true, required: ['resource'], ref: 'core.v1.ResourceFieldSelector', description: 'ResourceFieldSelector represents container resources (cpu, memory) and their output format' });

export const DownwardAPIVolumeFile = S.object({
  path: S.string({ proto: 1, description: "Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path. Must be utf-8 encoded. The first item of the relative path must not start with '..'" }),
  fieldRef: withProto(ObjectFieldSelector, 2),
  resourceFieldRef: withProto(ResourceFieldSelector, 3),
  mode: S.int32({ proto: 4, description: `Optional: mode bits used to set permissions on this file, ${MODE_BITS} If not specified, the volume defaultMode will be used.` }),
}, { required: ['path'], ref: 'core.v1.DownwardAPIVolumeFile', description: 'DownwardAPIVolumeFile represents information to create the file containing the pod field' });

const EmptyDirVolumeSource = S.object({
  medium: S.string({ proto: 1, description: 'medium represents what type of storage medium should back this directory. The default is "" which means to use the node\'s default medium. Must be an empty string (default) or Memory. More info: https://platform.io/docs/concepts/storage/volumes#emptydir' }),
  sizeLimit: S.quantity({ proto: 2, description: 'sizeLimit is the total amount of local storage required for this EmptyDir volume. The size limit is also applicable for memory medium. The maximum usage on memory medium EmptyDir would be the minimum value between the SizeLimit specified here and the sum of memory limits of all containers in a pod. The default is nil which means that the limit is undefined. More info: https://platform.io/docs/concepts/storage/volumes#emptydir' }),
}, { ref: 'core.v1.EmptyDirVolumeSource', description: 'Represents an empty directory for a pod. Empty directory volumes support ownership management and SELinux relabeling.' });

const GitRepoVolumeSource = S.object({
  repository: S.string({ proto: 1, description: 'repository is the URL' }),
  revision: S.string({ proto: 2, description: 'revision is the commit hash for the specified revision.' }),
  directory: S.string({ proto: 3, description: "directory is the target directory name. Must not contain or start with '..'.  If '.' is supplied, the volume directory will be the git repository.  Otherwise, if specified, the volume will contain the git repository in the subdirectory with the given name." }),
}, { ref: 'core.v1.GitRepoVolumeSource', description: 'Represents a volume that is populated with the contents of a git repository. DEPRECATED: GitRepo is deprecated.' });

const SecretVolumeSource = S.object({
  secretName: S.string({ proto: 1, description: "secretName is the name of the secret in the pod's namespace to use. More info: https://platform.io/docs/concepts/storage/volumes#secret" }),
  items: S.list(KeyToPath, { proto: 2, listType: 'atomic', description: ITEMS }),
  defaultMode: S.int32({ proto: 3, description: `defaultMode is Optional: mode bits used to set permissions on created files by default. ${MODE_BITS} Defaults to 0644. Directories within the path are not affected by this setting.` }),
  optional: S.bool({ proto: 4, description: 'optional field specify whether the Secret or its keys must be defined' }),
}, { ref: 'core.v1.SecretVolumeSource', description: 'Adapts a Secret into a volume. Secret volumes support ownership management and SELinux relabeling.' });

const ISCSIVolumeSource = S.object({
  targetPortal: S.string({ proto: 1, description: 'targetPortal is iSCSI Target Portal. The Portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).' }),
  iqn: S.string({ proto: 2, description: 'iqn is the target iSCSI Qualified Name.' }),
  lun: S.int32({ proto: 3, description: 'lun represents iSCSI Target Lun number.' }),
  iscsiInterface: S.string({ proto: 4, default: 'default', description: "iscsiInterface is the interface Name that uses an iSCSI transport. Defaults to 'default' (tcp)." }),
  fsType: S.string({ proto: 5, description: FS_TYPE }),
  readOnly: S.bool({ proto: 6, description: READ_ONLY }),
  portals: S.list(S.string(), { proto: 7, listType: 'atomic', description: 'portals is the iSCSI Target Portal List. The portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).' }),
  chapAuthDiscovery: S.bool({ proto: 8, description: 'chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication' }),
  chapAuthSession: S.bool({ proto: 11, description: 'chapAuthSession defines whether support iSCSI Session CHAP authentication' }),
  secretRef: withProto(LocalObjectReference, 10),
  initiatorName: S.string({ proto: 12, description: 'initiatorName is the custom iSCSI Initiator Name. If initiatorName is specified with iscsiInterface simultaneously, new iSCSI interface <target portal>:<volume name> will be created for the connection.' }),
}, { ref: 'core.v1.ISCSIVolumeSource', description: 'Represents an ISCSI disk. ISCSI volumes can only be mounted as read/write once. ISCSI volumes support ownership management and SELinux relabeling.' });

const GlusterfsVolumeSource = S.object({
  endpoints: S.string({ proto: 1, description: 'endpoints is the endpoint name that details Glusterfs topology.' }),
  path: S.string({ proto: 2, description: 'path is the Glusterfs volume path.' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly here will force the Glusterfs volume to be mounted with read-only permissions. Defaults to false.' }),
}, { ref: 'core.v1.GlusterfsVolumeSource', description: 'Represents a Glusterfs mount that lasts the lifetime of a pod. Glusterfs volumes do not support ownership management or SELinux relabeling.' });

const PersistentVolumeClaimVolumeSource = S.object({
  claimName: S.string({ proto: 1, description: 'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume. More info: https://platform.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims' }),
  readOnly: S.bool({ proto: 2, description: 'readOnly Will force the ReadOnly setting in VolumeMounts. Default false.' }),
}, { required: ['claimName'], ref: 'core.v1.PersistentVolumeClaimVolumeSource', description: "PersistentVolumeClaimVolumeSource references the user's PVC in the same namespace. This volume finds the bound PV and mounts that volume for the pod. A PersistentVolumeClaimVolumeSource is, essentially, a wrapper around another type of volume that is owned by someone else (the system)." });

const RBDVolumeSource = S.object({
  monitors: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'monitors is a collection of Ceph monitors.' }),
  image: S.string({ proto: 2, description: 'image is the rados image name.' }),
  fsType: S.string({ proto: 3, description: FS_TYPE }),
  pool: S.string({ proto: 4, default: 'rbd', description: 'pool is the rados pool name. Default is rbd.' }),
  user: S.string({ proto: 5, default: 'admin', description: 'user is the rados user name. Default is admin.' }),
  keyring: S.string({ proto: 6, default: '/etc/ceph/keyring', description: 'keyring is the path to key ring for RBDUser. Default is /etc/ceph/keyring.' }),
  secretRef: withProto(LocalObjectReference, 7),
  readOnly: S.bool({ proto: 8, description: READ_ONLY }),
}, { ref: 'core.v1.RBDVolumeSource', description: 'Represents a Rados Block Device mount that lasts the lifetime of a pod. RBD volumes support ownership management and SELinux relabeling.' });

const FlexVolumeSource = S.object({
  driver: S.string({ proto: 1, description: 'driver is the name of the driver to use for this volume.' }),
  fsType: S.string({ proto: 2, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". The default filesystem depends on FlexVolume script.' }),
  secretRef: withProto(LocalObjectReference, 3),
  readOnly: S.bool({ proto: 4, description: 'readOnly is Optional: defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  options: S.map(S.string(), { proto: 5, description: 'options is Optional: this field holds extra command options if any.' }),
}, { ref: 'core.v1.FlexVolumeSource', description: 'FlexVolume represents a generic volume resource that is provisioned/attached using an exec based plugin.' });

const CinderVolumeSource = S.object({
  volumeID: S.string({ proto: 1, description: 'volumeID used to identify the volume in cinder.' }),
  fsType: S.string({ proto: 2, description: FS_TYPE }),
  readOnly: S.bool({ proto: 3, description: READ_ONLY }),
  secretRef: withProto(LocalObjectReference, 4),
}, { ref: 'core.v1.CinderVolumeSource', description: 'Represents a cinder volume resource in Openstack.' });

const CephFSVolumeSource = S.object({
  monitors: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'monitors is Required: Monitors is a collection of Ceph monitors' }),
  path: S.string({ proto: 2, description: 'path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /' }),
  user: S.string({ proto: 3, description: 'user is optional: User is the rados user name, default is admin' }),
  secretFile: S.string({ proto: 4, description: 'secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret' }),
  secretRef: withProto(LocalObjectReference, 5),
  readOnly: S.bool({ proto: 6, description: READ_ONLY }),
}, { ref: 'core.v1.CephFSVolumeSource', description: 'Represents a Ceph Filesystem mount that lasts the lifetime of a pod Cephfs volumes do not support ownership management or SELinux relabeling.' });

const DownwardAPIVolumeSource = S.object({
  items: S.list(DownwardAPIVolumeFile, { proto: 1, listType: 'atomic', description: 'Items is a list of downward API volume file' }),
  defaultMode: S.int32({ proto: 2, description: `Optional: mode bits to use on created files by default. ${MODE_BITS} Defaults to 0644. Directories within the path are not affected by this setting.` }),
}, { ref: 'core.v1.DownwardAPIVolumeSource', description: 'DownwardAPIVolumeSource represents a volume containing downward API info. Downward API volumes support ownership management and SELinux relabeling.' });

const AzureFileVolumeSource = S.object({
  secretName: S.string({ proto: 1, description: 'secretName is the  name of secret that contains Azure Storage Account Name and Key' }),
  shareName: S.string({ proto: 2, description: 'shareName is the azure share Name' }),
  readOnly: S.bool({ proto: 3, description: READ_ONLY }),
}, { ref: 'core.v1.AzureFileVolumeSource', description: 'AzureFile represents an Azure File Service mount on the host and bind mount to the pod.' });

const ConfigMapVolumeSource = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  items: S.list(KeyToPath, { proto: 2, listType: 'atomic', description: ITEMS }),
  defaultMode: S.int32({ proto: 3, description: `defaultMode is optional: mode bits used to set permissions on created files by default. ${MODE_BITS} Defaults to 0644. Directories within the path are not affected by this setting.` }),
  optional: S.bool({ proto: 4, description: 'optional specify whether the ConfigMap or its keys must be defined' }),
}, { ref: 'core.v1.ConfigMapVolumeSource', description: 'Adapts a ConfigMap into a volume. ConfigMap volumes support ownership management and SELinux relabeling.' });

const SecretProjection = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  items: S.list(KeyToPath, { proto: 2, listType: 'atomic', description: ITEMS }),
  optional: S.bool({ proto: 4, description: 'optional field specify whether the Secret or its key must be defined' }),
}, { ref: 'core.v1.SecretProjection', description: 'Adapts a secret into a projected volume. Note that this is identical to a secret volume source without the default mode.' });

const ConfigMapProjection = S.object({
  name: inlined(S.string({ proto: 1, default: '', description: LOCAL_NAME }), 1),
  items: S.list(KeyToPath, { proto: 2, listType: 'atomic', description: ITEMS }),
  optional: S.bool({ proto: 4, description: 'optional specify whether the ConfigMap or its keys must be defined' }),
}, { ref: 'core.v1.ConfigMapProjection', description: 'Adapts a ConfigMap into a projected volume. Note that this is identical to a configmap volume source without the default mode.' });

const DownwardAPIProjection = S.object({
  items: S.list(DownwardAPIVolumeFile, { proto: 1, listType: 'atomic', description: 'Items is a list of DownwardAPIVolume file' }),
}, { ref: 'core.v1.DownwardAPIProjection', description: 'Represents downward API info for projecting into a projected volume. Note that this is identical to a downwardAPI volume source without the default mode.' });

const ServiceAccountTokenProjection = S.object({
  audience: S.string({ proto: 1, description: 'audience is the intended audience of the token. A recipient of a token must identify itself with an identifier specified in the audience of the token, and otherwise should reject the token. The audience defaults to the identifier of the apiserver.' }),
  expirationSeconds: S.int64({ proto: 2, description: 'expirationSeconds is the requested duration of validity of the service account token. As the token approaches expiration, the node agent volume plugin will proactively rotate the service account token. The node agent will start trying to rotate the token if the token is older than 80 percent of its time to live or if the token is older than 24 hours.Defaults to 1 hour and must be at least 10 minutes.' }),
  path: S.string({ proto: 3, description: 'path is the path relative to the mount point of the file to project the token into.' }),
}, { required: ['path'], ref: 'core.v1.ServiceAccountTokenProjection', description: 'ServiceAccountTokenProjection represents a projected service account token volume. This projection can be used to insert a service account token into the pods runtime filesystem for use against APIs (API server or otherwise).' });

const ClusterTrustBundleProjection = S.object({
  name: S.string({ proto: 1, description: 'Select a single ClusterTrustBundle by object name.  Mutually-exclusive with signerName and labelSelector.' }),
  signerName: S.string({ proto: 2, description: 'Select all ClusterTrustBundles that match this signer name. Mutually-exclusive with name.  The contents of all selected ClusterTrustBundles will be unified and deduplicated.' }),
  labelSelector: withProto(LabelSelector, 3),
  optional: S.bool({ proto: 5, description: "If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available.  If using name, then the named ClusterTrustBundle is allowed not to exist.  If using signerName, then the combination of signerName and labelSelector is allowed to match zero ClusterTrustBundles." }),
  path: S.string({ proto: 4, description: 'Relative path from the volume root to write the bundle.' }),
}, { required: ['path'], ref: 'core.v1.ClusterTrustBundleProjection', description: 'ClusterTrustBundleProjection describes how to select a set of ClusterTrustBundle objects and project their contents into the pod filesystem.' });

const VolumeProjection = S.object({
  secret: withProto(SecretProjection, 1),
  downwardAPI: withProto(DownwardAPIProjection, 2),
  configMap: withProto(ConfigMapProjection, 3),
  serviceAccountToken: withProto(ServiceAccountTokenProjection, 4),
  clusterTrustBundle: withProto(ClusterTrustBundleProjection, 5),
}, { ref: 'core.v1.VolumeProjection', description: 'Projection that may be projected along with other supported volume types. Exactly one of these fields must be set.' });

const ProjectedVolumeSource = S.object({
  sources: S.list(VolumeProjection, { proto: 1, listType: 'atomic', description: 'sources is the list of volume projections. Each entry in this list handles one source.' }),
  defaultMode: S.int32({ proto: 2, description: `defaultMode are the mode bits used to set permissions on created files by default. ${MODE_BITS} Directories within the path are not affected by this setting.` }),
}, { ref: 'core.v1.ProjectedVolumeSource', description: 'Represents a projected volume source' });

const ScaleIOVolumeSource = S.object({
  gateway: S.string({ proto: 1, description: 'gateway is the host address of the ScaleIO API Gateway.' }),
  system: S.string({ proto: 2, description: 'system is the name of the storage system as configured in ScaleIO.' }),
  secretRef: withProto(LocalObjectReference, 3),
  sslEnabled: S.bool({ proto: 4, description: 'sslEnabled Flag enable/disable SSL communication with Gateway, default false' }),
  protectionDomain: S.string({ proto: 5, description: 'protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.' }),
  storagePool: S.string({ proto: 6, description: 'storagePool is the ScaleIO Storage Pool associated with the protection domain.' }),
  storageMode: S.string({ proto: 7, default: 'ThinProvisioned', description: 'storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned. Default is ThinProvisioned.' }),
  volumeName: S.string({ proto: 8, description: 'volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.' }),
  fsType: S.string({ proto: 9, default: 'xfs', description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Default is "xfs".' }),
  readOnly: S.bool({ proto: 10, description: 'readOnly Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
}, { ref: 'core.v1.ScaleIOVolumeSource', description: 'ScaleIOVolumeSource represents a persistent ScaleIO volume' });

const StorageOSVolumeSource = S.object({
  volumeName: S.string({ proto: 1, description: 'volumeName is the human-readable name of the StorageOS volume.  Volume names are only unique within a namespace.' }),
  volumeNamespace: S.string({ proto: 2, description: "volumeNamespace specifies the scope of the volume within StorageOS.  If no namespace is specified then the Pod's namespace will be used." }),
  fsType: S.string({ proto: 3, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
  readOnly: S.bool({ proto: 4, description: 'readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  secretRef: withProto(LocalObjectReference, 5),
}, { ref: 'core.v1.StorageOSVolumeSource', description: 'Represents a StorageOS persistent volume resource.' });

const CSIVolumeSource = S.object({
  driver: S.string({ proto: 1, description: 'driver is the name of the CSI driver that handles this volume. Consult with your admin for the correct name as registered in the cluster.' }),
  readOnly: S.bool({ proto: 2, description: 'readOnly specifies a read-only configuration for the volume. Defaults to false (read/write).' }),
  fsType: S.string({ proto: 3, description: 'fsType to mount. Ex. "ext4", "xfs", "ntfs". If not provided, the empty value is passed to the associated CSI driver which will determine the default filesystem to apply.' }),
  volumeAttributes: S.map(S.string(), { proto: 4, description: "volumeAttributes stores driver-specific properties that are passed to the CSI driver. Consult your driver's documentation for supported values." }),
  nodePublishSecretRef: withProto(LocalObjectReference, 5),
}, { required: ['driver'], ref: 'core.v1.CSIVolumeSource', description: 'Represents a source location of a volume to mount, managed by an external CSI driver' });

export const PersistentVolumeClaimTemplate = S.object({
  metadata: withProto(ObjectMeta, 1),
  spec: withProto(PersistentVolumeClaimSpec, 2),
}, { required: ['spec'], ref: 'core.v1.PersistentVolumeClaimTemplate', description: 'PersistentVolumeClaimTemplate is used to produce PersistentVolumeClaim objects as part of an EphemeralVolumeSource.' });

const EphemeralVolumeSource = S.object({
  volumeClaimTemplate: withProto(PersistentVolumeClaimTemplate, 1),
}, { ref: 'core.v1.EphemeralVolumeSource', description: 'Represents an ephemeral volume that is handled by a normal storage driver.' });

const ImageVolumeSource = S.object({
  reference: S.string({ proto: 1, description: 'Required: Image or artifact reference to be used. Behaves in the same way as pod.spec.containers[*].image. Pull secrets will be assembled in the same way as for the container image by looking up node credentials, SA image pull secrets, and pod spec image pull secrets. More info: https://platform.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.' }),
  pullPolicy: S.string({ proto: 2, description: 'Policy for pulling OCI objects. Possible values are: Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.' }),
}, { ref: 'core.v1.ImageVolumeSource', description: 'ImageVolumeSource represents a image volume resource.' });

/** Every source a volume may name, in the order Kubernetes checks them (validateVolumeSource). */
export const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'projected', 'storageos', 'csi',
  'ephemeral', 'image',
] as const;

export const Volume = S.object({
  name: S.string({ proto: 1, description: 'name of the volume. Must be a DNS_LABEL and unique within the pod. More info: https://platform.io/docs/concepts/overview/working-with-objects/names/#names' }),
  // The sources are Go's inlined VolumeSource (field 2 of Volume); their numbers are VolumeSource's.
  hostPath: inlined(withProto(HostPathVolumeSource, 1), 2),
  emptyDir: inlined(withProto(EmptyDirVolumeSource, 2), 2),
  gcePersistentDisk: inlined(withProto(GCEPersistentDiskVolumeSource, 3), 2),
  awsElasticBlockStore: inlined(withProto(AWSElasticBlockStoreVolumeSource, 4), 2),
  gitRepo: inlined(withProto(GitRepoVolumeSource, 5), 2),
  secret: inlined(withProto(SecretVolumeSource, 6), 2),
  nfs: inlined(withProto(NFSVolumeSource, 7), 2),
  iscsi: inlined(withProto(ISCSIVolumeSource, 8), 2),
  glusterfs: inlined(withProto(GlusterfsVolumeSource, 9), 2),
  persistentVolumeClaim: inlined(withProto(PersistentVolumeClaimVolumeSource, 10), 2),
  rbd: inlined(withProto(RBDVolumeSource, 11), 2),
  flexVolume: inlined(withProto(FlexVolumeSource, 12), 2),
  cinder: inlined(withProto(CinderVolumeSource, 13), 2),
  cephfs: inlined(withProto(CephFSVolumeSource, 14), 2),
  flocker: inlined(withProto(FlockerVolumeSource, 15), 2),
  downwardAPI: inlined(withProto(DownwardAPIVolumeSource, 16), 2),
  fc: inlined(withProto(FCVolumeSource, 17), 2),
  azureFile: inlined(withProto(AzureFileVolumeSource, 18), 2),
  configMap: inlined(withProto(ConfigMapVolumeSource, 19), 2),
  vsphereVolume: inlined(withProto(VsphereVirtualDiskVolumeSource, 20), 2),
  quobyte: inlined(withProto(QuobyteVolumeSource, 21), 2),
  azureDisk: inlined(withProto(AzureDiskVolumeSource, 22), 2),
  photonPersistentDisk: inlined(withProto(PhotonPersistentDiskVolumeSource, 23), 2),
  projected: inlined(withProto(ProjectedVolumeSource, 26), 2),
  portworxVolume: inlined(withProto(PortworxVolumeSource, 24), 2),
  scaleIO: inlined(withProto(ScaleIOVolumeSource, 25), 2),
  storageos: inlined(withProto(StorageOSVolumeSource, 27), 2),
  csi: inlined(withProto(CSIVolumeSource, 28), 2),
  ephemeral: inlined(withProto(EphemeralVolumeSource, 29), 2),
  image: inlined(withProto(ImageVolumeSource, 30), 2),
}, { required: ['name'], ref: 'core.v1.Volume', description: 'Volume represents a named volume in a pod that may be accessed by any container in the pod.' });

