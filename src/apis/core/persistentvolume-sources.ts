// The volume sources a PersistentVolume can have (core v1 PersistentVolumeSource, inlined in the spec),
// their schemas as Kubernetes v1.32 has them, and their validation (pkg/apis/core/validation).
// PersistentVolumeSource is embedded in PersistentVolumeSpec (inline in JSON, field 2 in protobuf), so each
// source carries its number in that embedded message and `x-proto-embedded: 2`.
import type { TSchema } from '@sinclair/typebox';
import { S } from '../meta/schema.ts';
import { ObjectReference } from '../meta/v1.ts';
import { type FieldError, invalid, required, forbidden, notSupported, tooLong, child, key } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain, isDNS1123Label, nameIsDNSLabel, byteLength } from '../../machinery/validation/strings.ts';
import { errorWithGoValue, goStringSlice } from '../../machinery/go-format.ts';

/** A shared type in field position, with its protobuf number and the field's own description. */
function ref<T extends TSchema>(schema: T, proto: number, description?: string): T {
  return { ...schema, 'x-proto': proto, ...(description ? { description } : {}) };
}
export const SecretReference = S.object({
  name: S.string({ proto: 1, description: 'name is unique within a namespace to reference a secret resource.' }),
  namespace: S.string({ proto: 2, description: 'namespace defines the space within which the secret name must be unique.' }),
}, { ref: 'core.v1.SecretReference', description: 'SecretReference represents a Secret Reference. It has enough information to retrieve secret in any namespace' });

export const AWSElasticBlockStoreVolumeSource = S.object({
  volumeID: S.string({ proto: 1, description: 'volumeID is unique ID of the persistent disk resource in AWS (Amazon EBS volume). More info: https://platform.io/docs/concepts/storage/volumes#awselasticblockstore' }),
  fsType: S.string({ proto: 2, description: 'fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified. More info: https://platform.io/docs/concepts/storage/volumes#awselasticblockstore' }),
  partition: S.int32({ proto: 3, description: 'partition is the partition in the volume that you want to mount. If omitted, the default is to mount by volume name. Examples: For volume /dev/sda1, you specify the partition as "1". Similarly, the volume partition for /dev/sda is "0" (or you can leave the property empty).' }),
  readOnly: S.bool({ proto: 4, description: 'readOnly value true will force the readOnly setting in VolumeMounts. More info: https://platform.io/docs/concepts/storage/volumes#awselasticblockstore' }),
}, { ref: 'core.v1.AWSElasticBlockStoreVolumeSource', description: 'Represents a Persistent Disk resource in AWS.  An AWS EBS disk must exist before mounting to a container. The disk must also be in the same AWS zone as the kubelet. An AWS EBS disk can only be mounted as read/write once. AWS EBS volumes support ownership management and SELinux relabeling.' });

export const AzureDiskVolumeSource = S.object({
  diskName: S.string({ proto: 1, description: 'diskName is the Name of the data disk in the blob storage' }),
  diskURI: S.string({ proto: 2, description: 'diskURI is the URI of data disk in the blob storage' }),
  cachingMode: S.string({ proto: 3, description: 'cachingMode is the Host Caching mode: None, Read Only, Read Write.' }),
  fsType: S.string({ proto: 4, description: 'fsType is Filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
  readOnly: S.bool({ proto: 5, description: 'readOnly Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  kind: S.string({ proto: 6, description: 'kind expected values are Shared: multiple blob disks per storage account  Dedicated: single blob disk per storage account  Managed: azure managed data disk (only in managed availability set). defaults to shared' }),
}, { ref: 'core.v1.AzureDiskVolumeSource', description: 'AzureDisk represents an Azure Data Disk mount on the host and bind mount to the pod.' });

export const AzureFilePersistentVolumeSource = S.object({
  secretName: S.string({ proto: 1, description: 'secretName is the name of secret that contains Azure Storage Account Name and Key' }),
  shareName: S.string({ proto: 2, description: 'shareName is the azure Share Name' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  secretNamespace: S.string({ proto: 4, description: 'secretNamespace is the namespace of the secret that contains Azure Storage Account Name and Key default is the same as the Pod' }),
}, { ref: 'core.v1.AzureFilePersistentVolumeSource', description: 'AzureFile represents an Azure File Service mount on the host and bind mount to the pod.' });

export const CSIPersistentVolumeSource = S.object({
  driver: S.string({ proto: 1, description: 'driver is the name of the driver to use for this volume. Required.' }),
  volumeHandle: S.string({ proto: 2, description: 'volumeHandle is the unique volume name returned by the CSI volume plugin’s CreateVolume to refer to the volume on all subsequent calls. Required.' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly value to pass to ControllerPublishVolumeRequest. Defaults to false (read/write).' }),
  fsType: S.string({ proto: 4, description: 'fsType to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs".' }),
  volumeAttributes: S.map(S.string(), { proto: 5, description: 'volumeAttributes of the volume to publish.' }),
  controllerPublishSecretRef: ref(SecretReference, 6),
  nodeStageSecretRef: ref(SecretReference, 7),
  nodePublishSecretRef: ref(SecretReference, 8),
  controllerExpandSecretRef: ref(SecretReference, 9),
  nodeExpandSecretRef: ref(SecretReference, 10),
}, { ref: 'core.v1.CSIPersistentVolumeSource', description: 'Represents storage that is managed by an external CSI volume driver' });

export const CephFSPersistentVolumeSource = S.object({
  monitors: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'monitors is Required: Monitors is a collection of Ceph monitors More info: https://examples.svc.io/volumes/cephfs/README.md#how-to-use-it' }),
  path: S.string({ proto: 2, description: 'path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /' }),
  user: S.string({ proto: 3, description: 'user is Optional: User is the rados user name, default is admin More info: https://examples.svc.io/volumes/cephfs/README.md#how-to-use-it' }),
  secretFile: S.string({ proto: 4, description: 'secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret More info: https://examples.svc.io/volumes/cephfs/README.md#how-to-use-it' }),
  secretRef: ref(SecretReference, 5),
  readOnly: S.bool({ proto: 6, description: 'readOnly is Optional: Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts. More info: https://examples.svc.io/volumes/cephfs/README.md#how-to-use-it' }),
}, { ref: 'core.v1.CephFSPersistentVolumeSource', description: 'Represents a Ceph Filesystem mount that lasts the lifetime of a pod Cephfs volumes do not support ownership management or SELinux relabeling.' });

export const CinderPersistentVolumeSource = S.object({
  volumeID: S.string({ proto: 1, description: 'volumeID used to identify the volume in cinder. More info: https://examples.svc.io/mysql-cinder-pd/README.md' }),
  fsType: S.string({ proto: 2, description: 'fsType Filesystem type to mount. Must be a filesystem type supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified. More info: https://examples.svc.io/mysql-cinder-pd/README.md' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly is Optional: Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts. More info: https://examples.svc.io/mysql-cinder-pd/README.md' }),
  secretRef: ref(SecretReference, 4),
}, { ref: 'core.v1.CinderPersistentVolumeSource', description: 'Represents a cinder volume resource in Openstack. A Cinder volume must exist before mounting to a container. The volume must also be in the same region as the kubelet. Cinder volumes support ownership management and SELinux relabeling.' });

export const FCVolumeSource = S.object({
  targetWWNs: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'targetWWNs is Optional: FC target worldwide names (WWNs)' }),
  lun: S.int32({ proto: 2, description: 'lun is Optional: FC target lun number' }),
  fsType: S.string({ proto: 3, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
  readOnly: S.bool({ proto: 4, description: 'readOnly is Optional: Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  wwids: S.list(S.string(), { proto: 5, listType: 'atomic', description: 'wwids Optional: FC volume world wide identifiers (wwids) Either wwids or combination of targetWWNs and lun must be set, but not both simultaneously.' }),
}, { ref: 'core.v1.FCVolumeSource', description: 'Represents a Fibre Channel volume. Fibre Channel volumes can only be mounted as read/write once. Fibre Channel volumes support ownership management and SELinux relabeling.' });

export const FlexPersistentVolumeSource = S.object({
  driver: S.string({ proto: 1, description: 'driver is the name of the driver to use for this volume.' }),
  fsType: S.string({ proto: 2, description: 'fsType is the Filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". The default filesystem depends on FlexVolume script.' }),
  secretRef: ref(SecretReference, 3),
  readOnly: S.bool({ proto: 4, description: 'readOnly is Optional: defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  options: S.map(S.string(), { proto: 5, description: 'options is Optional: this field holds extra command options if any.' }),
}, { ref: 'core.v1.FlexPersistentVolumeSource', description: 'FlexPersistentVolumeSource represents a generic persistent volume resource that is provisioned/attached using an exec based plugin.' });

export const FlockerVolumeSource = S.object({
  datasetName: S.string({ proto: 1, description: 'datasetName is Name of the dataset stored as metadata -> name on the dataset for Flocker should be considered as deprecated' }),
  datasetUUID: S.string({ proto: 2, description: 'datasetUUID is the UUID of the dataset. This is unique identifier of a Flocker dataset' }),
}, { ref: 'core.v1.FlockerVolumeSource', description: 'Represents a Flocker volume mounted by the Flocker agent. One and only one of datasetName and datasetUUID should be set. Flocker volumes do not support ownership management or SELinux relabeling.' });

export const GCEPersistentDiskVolumeSource = S.object({
  pdName: S.string({ proto: 1, description: 'pdName is unique name of the PD resource in GCE. Used to identify the disk in GCE. More info: https://platform.io/docs/concepts/storage/volumes#gcepersistentdisk' }),
  fsType: S.string({ proto: 2, description: 'fsType is filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified. More info: https://platform.io/docs/concepts/storage/volumes#gcepersistentdisk' }),
  partition: S.int32({ proto: 3, description: 'partition is the partition in the volume that you want to mount. If omitted, the default is to mount by volume name. Examples: For volume /dev/sda1, you specify the partition as "1". Similarly, the volume partition for /dev/sda is "0" (or you can leave the property empty). More info: https://platform.io/docs/concepts/storage/volumes#gcepersistentdisk' }),
  readOnly: S.bool({ proto: 4, description: 'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false. More info: https://platform.io/docs/concepts/storage/volumes#gcepersistentdisk' }),
}, { ref: 'core.v1.GCEPersistentDiskVolumeSource', description: 'Represents a Persistent Disk resource in Google Compute Engine.  A GCE PD must exist before mounting to a container. The disk must also be in the same GCE project and zone as the kubelet. A GCE PD can only be mounted as read/write once or read-only many times. GCE PDs support ownership management and SELinux relabeling.' });

export const GlusterfsPersistentVolumeSource = S.object({
  endpoints: S.string({ proto: 1, description: 'endpoints is the endpoint name that details Glusterfs topology. More info: https://examples.svc.io/volumes/glusterfs/README.md#create-a-pod' }),
  path: S.string({ proto: 2, description: 'path is the Glusterfs volume path. More info: https://examples.svc.io/volumes/glusterfs/README.md#create-a-pod' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly here will force the Glusterfs volume to be mounted with read-only permissions. Defaults to false. More info: https://examples.svc.io/volumes/glusterfs/README.md#create-a-pod' }),
  endpointsNamespace: S.string({ proto: 4, description: 'endpointsNamespace is the namespace that contains Glusterfs endpoint. If this field is empty, the EndpointNamespace defaults to the same namespace as the bound PVC. More info: https://examples.svc.io/volumes/glusterfs/README.md#create-a-pod' }),
}, { ref: 'core.v1.GlusterfsPersistentVolumeSource', description: 'Represents a Glusterfs mount that lasts the lifetime of a pod. Glusterfs volumes do not support ownership management or SELinux relabeling.' });

export const HostPathVolumeSource = S.object({
  path: S.string({ proto: 1, description: 'path of the directory on the host. If the path is a symlink, it will follow the link to the real path. More info: https://platform.io/docs/concepts/storage/volumes#hostpath' }),
  type: S.string({ proto: 2, description: 'type for HostPath Volume Defaults to "" More info: https://platform.io/docs/concepts/storage/volumes#hostpath' }),
}, { ref: 'core.v1.HostPathVolumeSource', description: 'Represents a host path mapped into a pod. Host path volumes do not support ownership management or SELinux relabeling.' });

export const ISCSIPersistentVolumeSource = S.object({
  targetPortal: S.string({ proto: 1, description: 'targetPortal is iSCSI Target Portal. The Portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).' }),
  iqn: S.string({ proto: 2, description: 'iqn is Target iSCSI Qualified Name.' }),
  lun: S.int32({ proto: 3, description: 'lun is iSCSI Target Lun number.' }),
  iscsiInterface: S.string({ proto: 4, description: 'iscsiInterface is the interface Name that uses an iSCSI transport. Defaults to \'default\' (tcp).' }),
  fsType: S.string({ proto: 5, description: 'fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified. More info: https://platform.io/docs/concepts/storage/volumes#iscsi' }),
  readOnly: S.bool({ proto: 6, description: 'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.' }),
  portals: S.list(S.string(), { proto: 7, listType: 'atomic', description: 'portals is the iSCSI Target Portal List. The Portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).' }),
  chapAuthDiscovery: S.bool({ proto: 8, description: 'chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication' }),
  secretRef: ref(SecretReference, 10),
  chapAuthSession: S.bool({ proto: 11, description: 'chapAuthSession defines whether support iSCSI Session CHAP authentication' }),
  initiatorName: S.string({ proto: 12, description: 'initiatorName is the custom iSCSI Initiator Name. If initiatorName is specified with iscsiInterface simultaneously, new iSCSI interface <target portal>:<volume name> will be created for the connection.' }),
}, { ref: 'core.v1.ISCSIPersistentVolumeSource', description: 'ISCSIPersistentVolumeSource represents an ISCSI disk. ISCSI volumes can only be mounted as read/write once. ISCSI volumes support ownership management and SELinux relabeling.' });

export const LocalVolumeSource = S.object({
  path: S.string({ proto: 1, description: 'path of the full path to the volume on the node. It can be either a directory or block device (disk, partition, ...).' }),
  fsType: S.string({ proto: 2, description: 'fsType is the filesystem type to mount. It applies only when the Path is a block device. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". The default value is to auto-select a filesystem if unspecified.' }),
}, { ref: 'core.v1.LocalVolumeSource', description: 'Local represents directly-attached storage with node affinity' });

export const NFSVolumeSource = S.object({
  server: S.string({ proto: 1, description: 'server is the hostname or IP address of the NFS server. More info: https://platform.io/docs/concepts/storage/volumes#nfs' }),
  path: S.string({ proto: 2, description: 'path that is exported by the NFS server. More info: https://platform.io/docs/concepts/storage/volumes#nfs' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly here will force the NFS export to be mounted with read-only permissions. Defaults to false. More info: https://platform.io/docs/concepts/storage/volumes#nfs' }),
}, { ref: 'core.v1.NFSVolumeSource', description: 'Represents an NFS mount that lasts the lifetime of a pod. NFS volumes do not support ownership management or SELinux relabeling.' });

export const PhotonPersistentDiskVolumeSource = S.object({
  pdID: S.string({ proto: 1, description: 'pdID is the ID that identifies Photon Controller persistent disk' }),
  fsType: S.string({ proto: 2, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
}, { ref: 'core.v1.PhotonPersistentDiskVolumeSource', description: 'Represents a Photon Controller persistent disk resource.' });

export const PortworxVolumeSource = S.object({
  volumeID: S.string({ proto: 1, description: 'volumeID uniquely identifies a Portworx volume' }),
  fsType: S.string({ proto: 2, description: 'fSType represents the filesystem type to mount Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs". Implicitly inferred to be "ext4" if unspecified.' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
}, { ref: 'core.v1.PortworxVolumeSource', description: 'PortworxVolumeSource represents a Portworx volume resource.' });

export const QuobyteVolumeSource = S.object({
  registry: S.string({ proto: 1, description: 'registry represents a single or multiple Quobyte Registry services specified as a string as host:port pair (multiple entries are separated with commas) which acts as the central registry for volumes' }),
  volume: S.string({ proto: 2, description: 'volume is a string that references an already created Quobyte volume by name.' }),
  readOnly: S.bool({ proto: 3, description: 'readOnly here will force the Quobyte volume to be mounted with read-only permissions. Defaults to false.' }),
  user: S.string({ proto: 4, description: 'user to map volume access to Defaults to serivceaccount user' }),
  group: S.string({ proto: 5, description: 'group to map volume access to Default is no group' }),
  tenant: S.string({ proto: 6, description: 'tenant owning the given Quobyte volume in the Backend Used with dynamically provisioned Quobyte volumes, value is set by the plugin' }),
}, { ref: 'core.v1.QuobyteVolumeSource', description: 'Represents a Quobyte mount that lasts the lifetime of a pod. Quobyte volumes do not support ownership management or SELinux relabeling.' });

export const RBDPersistentVolumeSource = S.object({
  monitors: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'monitors is a collection of Ceph monitors. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
  image: S.string({ proto: 2, description: 'image is the rados image name. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
  fsType: S.string({ proto: 3, description: 'fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified. More info: https://platform.io/docs/concepts/storage/volumes#rbd' }),
  pool: S.string({ proto: 4, description: 'pool is the rados pool name. Default is rbd. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
  user: S.string({ proto: 5, description: 'user is the rados user name. Default is admin. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
  keyring: S.string({ proto: 6, description: 'keyring is the path to key ring for RBDUser. Default is /etc/ceph/keyring. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
  secretRef: ref(SecretReference, 7),
  readOnly: S.bool({ proto: 8, description: 'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false. More info: https://examples.svc.io/volumes/rbd/README.md#how-to-use-it' }),
}, { ref: 'core.v1.RBDPersistentVolumeSource', description: 'Represents a Rados Block Device mount that lasts the lifetime of a pod. RBD volumes support ownership management and SELinux relabeling.' });

export const ScaleIOPersistentVolumeSource = S.object({
  gateway: S.string({ proto: 1, description: 'gateway is the host address of the ScaleIO API Gateway.' }),
  system: S.string({ proto: 2, description: 'system is the name of the storage system as configured in ScaleIO.' }),
  secretRef: ref(SecretReference, 3),
  sslEnabled: S.bool({ proto: 4, description: 'sslEnabled is the flag to enable/disable SSL communication with Gateway, default false' }),
  protectionDomain: S.string({ proto: 5, description: 'protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.' }),
  storagePool: S.string({ proto: 6, description: 'storagePool is the ScaleIO Storage Pool associated with the protection domain.' }),
  storageMode: S.string({ proto: 7, description: 'storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned. Default is ThinProvisioned.' }),
  volumeName: S.string({ proto: 8, description: 'volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.' }),
  fsType: S.string({ proto: 9, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Default is "xfs"' }),
  readOnly: S.bool({ proto: 10, description: 'readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
}, { ref: 'core.v1.ScaleIOPersistentVolumeSource', description: 'ScaleIOPersistentVolumeSource represents a persistent ScaleIO volume' });

export const StorageOSPersistentVolumeSource = S.object({
  volumeName: S.string({ proto: 1, description: 'volumeName is the human-readable name of the StorageOS volume.  Volume names are only unique within a namespace.' }),
  volumeNamespace: S.string({ proto: 2, description: 'volumeNamespace specifies the scope of the volume within StorageOS.  If no namespace is specified then the Pod\'s namespace will be used.  This allows the Kubernetes name scoping to be mirrored within StorageOS for tighter integration. Set VolumeName to any name to override the default behaviour. Set to "default" if you are not using namespaces within StorageOS. Namespaces that do not pre-exist within StorageOS will be created.' }),
  fsType: S.string({ proto: 3, description: 'fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
  readOnly: S.bool({ proto: 4, description: 'readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.' }),
  secretRef: ref(ObjectReference, 5),
}, { ref: 'core.v1.StorageOSPersistentVolumeSource', description: 'Represents a StorageOS persistent volume resource.' });

export const VsphereVirtualDiskVolumeSource = S.object({
  volumePath: S.string({ proto: 1, description: 'volumePath is the path that identifies vSphere volume vmdk' }),
  fsType: S.string({ proto: 2, description: 'fsType is filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". Implicitly inferred to be "ext4" if unspecified.' }),
  storagePolicyName: S.string({ proto: 3, description: 'storagePolicyName is the storage Policy Based Management (SPBM) profile name.' }),
  storagePolicyID: S.string({ proto: 4, description: 'storagePolicyID is the storage Policy Based Management (SPBM) profile ID associated with the StoragePolicyName.' }),
}, { ref: 'core.v1.VsphereVirtualDiskVolumeSource', description: 'Represents a vSphere volume resource.' });

/** The source fields of a PersistentVolumeSpec, numbered as in PersistentVolumeSource (inlined in the spec). */
export const persistentVolumeSourceProperties = {
  gcePersistentDisk: { ...GCEPersistentDiskVolumeSource, 'x-proto': 1, 'x-proto-embedded': 2, description: 'gcePersistentDisk represents a GCE Disk resource that is attached to a kubelet\'s host machine and then exposed to the pod. Provisioned by an admin. Deprecated: GCEPersistentDisk is deprecated. All operations for the in-tree gcePersistentDisk type are redirected to the pd.csi.storage.gke.io CSI driver. More info: https://platform.io/docs/concepts/storage/volumes#gcepersistentdisk' },
  awsElasticBlockStore: { ...AWSElasticBlockStoreVolumeSource, 'x-proto': 2, 'x-proto-embedded': 2, description: 'awsElasticBlockStore represents an AWS Disk resource that is attached to a kubelet\'s host machine and then exposed to the pod. Deprecated: AWSElasticBlockStore is deprecated. All operations for the in-tree awsElasticBlockStore type are redirected to the ebs.csi.aws.com CSI driver. More info: https://platform.io/docs/concepts/storage/volumes#awselasticblockstore' },
  hostPath: { ...HostPathVolumeSource, 'x-proto': 3, 'x-proto-embedded': 2, description: 'hostPath represents a directory on the host. Provisioned by a developer or tester. This is useful for single-node development and testing only! On-host storage is not supported in any way and WILL NOT WORK in a multi-node cluster. More info: https://platform.io/docs/concepts/storage/volumes#hostpath' },
  glusterfs: { ...GlusterfsPersistentVolumeSource, 'x-proto': 4, 'x-proto-embedded': 2, description: 'glusterfs represents a Glusterfs volume that is attached to a host and exposed to the pod. Provisioned by an admin. Deprecated: Glusterfs is deprecated and the in-tree glusterfs type is no longer supported. More info: https://examples.svc.io/volumes/glusterfs/README.md' },
  nfs: { ...NFSVolumeSource, 'x-proto': 5, 'x-proto-embedded': 2, description: 'nfs represents an NFS mount on the host. Provisioned by an admin. More info: https://platform.io/docs/concepts/storage/volumes#nfs' },
  rbd: { ...RBDPersistentVolumeSource, 'x-proto': 6, 'x-proto-embedded': 2, description: 'rbd represents a Rados Block Device mount on the host that shares a pod\'s lifetime. Deprecated: RBD is deprecated and the in-tree rbd type is no longer supported. More info: https://examples.svc.io/volumes/rbd/README.md' },
  iscsi: { ...ISCSIPersistentVolumeSource, 'x-proto': 7, 'x-proto-embedded': 2, description: 'iscsi represents an ISCSI Disk resource that is attached to a kubelet\'s host machine and then exposed to the pod. Provisioned by an admin.' },
  cinder: { ...CinderPersistentVolumeSource, 'x-proto': 8, 'x-proto-embedded': 2, description: 'cinder represents a cinder volume attached and mounted on kubelets host machine. Deprecated: Cinder is deprecated. All operations for the in-tree cinder type are redirected to the cinder.csi.openstack.org CSI driver. More info: https://examples.svc.io/mysql-cinder-pd/README.md' },
  cephfs: { ...CephFSPersistentVolumeSource, 'x-proto': 9, 'x-proto-embedded': 2, description: 'cephFS represents a Ceph FS mount on the host that shares a pod\'s lifetime. Deprecated: CephFS is deprecated and the in-tree cephfs type is no longer supported.' },
  fc: { ...FCVolumeSource, 'x-proto': 10, 'x-proto-embedded': 2, description: 'fc represents a Fibre Channel resource that is attached to a kubelet\'s host machine and then exposed to the pod.' },
  flocker: { ...FlockerVolumeSource, 'x-proto': 11, 'x-proto-embedded': 2, description: 'flocker represents a Flocker volume attached to a kubelet\'s host machine and exposed to the pod for its usage. This depends on the Flocker control service being running. Deprecated: Flocker is deprecated and the in-tree flocker type is no longer supported.' },
  flexVolume: { ...FlexPersistentVolumeSource, 'x-proto': 12, 'x-proto-embedded': 2, description: 'flexVolume represents a generic volume resource that is provisioned/attached using an exec based plugin. Deprecated: FlexVolume is deprecated. Consider using a CSIDriver instead.' },
  azureFile: { ...AzureFilePersistentVolumeSource, 'x-proto': 13, 'x-proto-embedded': 2, description: 'azureFile represents an Azure File Service mount on the host and bind mount to the pod. Deprecated: AzureFile is deprecated. All operations for the in-tree azureFile type are redirected to the file.csi.azure.com CSI driver.' },
  vsphereVolume: { ...VsphereVirtualDiskVolumeSource, 'x-proto': 14, 'x-proto-embedded': 2, description: 'vsphereVolume represents a vSphere volume attached and mounted on kubelets host machine. Deprecated: VsphereVolume is deprecated. All operations for the in-tree vsphereVolume type are redirected to the csi.vsphere.vmware.com CSI driver.' },
  quobyte: { ...QuobyteVolumeSource, 'x-proto': 15, 'x-proto-embedded': 2, description: 'quobyte represents a Quobyte mount on the host that shares a pod\'s lifetime. Deprecated: Quobyte is deprecated and the in-tree quobyte type is no longer supported.' },
  azureDisk: { ...AzureDiskVolumeSource, 'x-proto': 16, 'x-proto-embedded': 2, description: 'azureDisk represents an Azure Data Disk mount on the host and bind mount to the pod. Deprecated: AzureDisk is deprecated. All operations for the in-tree azureDisk type are redirected to the disk.csi.azure.com CSI driver.' },
  photonPersistentDisk: { ...PhotonPersistentDiskVolumeSource, 'x-proto': 17, 'x-proto-embedded': 2, description: 'photonPersistentDisk represents a PhotonController persistent disk attached and mounted on kubelets host machine. Deprecated: PhotonPersistentDisk is deprecated and the in-tree photonPersistentDisk type is no longer supported.' },
  portworxVolume: { ...PortworxVolumeSource, 'x-proto': 18, 'x-proto-embedded': 2, description: 'portworxVolume represents a portworx volume attached and mounted on kubelets host machine. Deprecated: PortworxVolume is deprecated. All operations for the in-tree portworxVolume type are redirected to the pxd.portworx.com CSI driver when the CSIMigrationPortworx feature-gate is on.' },
  scaleIO: { ...ScaleIOPersistentVolumeSource, 'x-proto': 19, 'x-proto-embedded': 2, description: 'scaleIO represents a ScaleIO persistent volume attached and mounted on Kubernetes nodes. Deprecated: ScaleIO is deprecated and the in-tree scaleIO type is no longer supported.' },
  local: { ...LocalVolumeSource, 'x-proto': 20, 'x-proto-embedded': 2, description: 'local represents directly-attached storage with node affinity' },
  storageos: { ...StorageOSPersistentVolumeSource, 'x-proto': 21, 'x-proto-embedded': 2, description: 'storageOS represents a StorageOS volume that is attached to the kubelet\'s host machine and mounted into the pod. Deprecated: StorageOS is deprecated and the in-tree storageos type is no longer supported. More info: https://examples.svc.io/volumes/storageos/README.md' },
  csi: { ...CSIPersistentVolumeSource, 'x-proto': 22, 'x-proto-embedded': 2, description: 'csi represents storage that is handled by an external CSI driver.' },
};

export const SOURCE_NAMES = Object.keys(persistentVolumeSourceProperties) as (keyof typeof persistentVolumeSourceProperties)[];

type Source = Record<string, unknown> & { secretRef?: { name?: string; namespace?: string } | null };
export type Sources = Partial<Record<(typeof SOURCE_NAMES)[number], Source | null>>;

// ---- defaults (SetDefaults_HostPathVolumeSource, _ISCSIPersistentVolumeSource, _RBDPersistentVolumeSource,
// _AzureDiskVolumeSource, _ScaleIOPersistentVolumeSource) ----

export function defaultSources(spec: Sources): void {
  const set = (src: Source | null | undefined, field: string, value: unknown, whenEmpty = false) => {
    if (!src || typeof src !== 'object') return;
    if (src[field] === undefined || src[field] === null || (whenEmpty && src[field] === '')) src[field] = value;
  };
  set(spec.hostPath, 'type', '');
  set(spec.iscsi, 'iscsiInterface', 'default', true);
  set(spec.rbd, 'pool', 'rbd', true);
  set(spec.rbd, 'user', 'admin', true);
  set(spec.rbd, 'keyring', '/etc/ceph/keyring', true);
  set(spec.azureDisk, 'cachingMode', 'ReadWrite');
  set(spec.azureDisk, 'kind', 'Shared');
  set(spec.azureDisk, 'fsType', 'ext4');
  set(spec.azureDisk, 'readOnly', false);
  set(spec.scaleIO, 'storageMode', 'ThinProvisioned', true);
  set(spec.scaleIO, 'fsType', 'xfs', true);
}

// ---- validation ----

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): string[] => (Array.isArray(v) ? v as string[] : []);
const PARTITION_RANGE = 'must be between 1 and 255, inclusive';
const LUN_RANGE = 'must be between 0 and 255, inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** A path must not step out with `..`. */
export function pathNoBackstepsErrors(path: string, at: string): FieldError[] {
  return path.split('/').includes('..') ? [invalid(at, path, "must not contain '..'")] : [];
}

const requiredField = (src: Source, field: string, at: string) => (str(src[field]) ? [] : [required(child(at, field), '')]);

function partitionErrors(src: Source, at: string): FieldError[] {
  const p = typeof src.partition === 'number' ? src.partition : 0;
  return p < 0 || p > 255 ? [invalid(child(at, 'partition'), p, PARTITION_RANGE)] : [];
}

function hostPathErrors(src: Source, at: string): FieldError[] {
  const p = str(src.path);
  if (!p) return [required(child(at, 'path'), '')];
  const errs = pathNoBackstepsErrors(p, child(at, 'path'));
  if (src.type !== undefined && src.type !== null && !HOST_PATH_TYPES.includes(str(src.type))) errs.push(notSupported(child(at, 'type'), src.type, HOST_PATH_TYPES));
  return errs;
}

function nfsErrors(src: Source, at: string): FieldError[] {
  const errs = [...requiredField(src, 'server', at), ...requiredField(src, 'path', at)];
  if (!str(src.path).startsWith('/')) errs.push(invalid(child(at, 'path'), str(src.path), 'must be an absolute path'));
  return errs;
}

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

function iscsiNameErrors(value: string, at: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [invalid(at, value, 'must be valid format starting with iqn, eui, or naa')];
  const re = value.startsWith('iqn') ? IQN : value.startsWith('eui') ? EUI : NAA;
  return re.test(value) ? [] : [invalid(at, value, 'must be valid format')];
}

function iscsiErrors(src: Source, pvName: string, at: string): FieldError[] {
  const errs = requiredField(src, 'targetPortal', at);
  const portal = str(src.targetPortal);
  if (src.initiatorName !== undefined && src.initiatorName !== null && (pvName + ':' + portal).length > 64) {
    errs.push(invalid(child(at, 'targetportal'), portal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  const iqn = str(src.iqn);
  if (!iqn) errs.push(required(child(at, 'iqn'), ''));
  else errs.push(...iscsiNameErrors(iqn, child(at, 'iqn')));
  const lun = typeof src.lun === 'number' ? src.lun : 0;
  if (lun < 0 || lun > 255) errs.push(invalid(child(at, 'lun'), lun, LUN_RANGE));
  if ((src.chapAuthDiscovery || src.chapAuthSession) && !src.secretRef) errs.push(required(child(at, 'secretRef'), ''));
  if (src.secretRef && !src.secretRef.name) errs.push(required(child(at, 'secretRef.name'), ''));
  if (src.initiatorName !== undefined && src.initiatorName !== null) errs.push(...iscsiNameErrors(str(src.initiatorName), child(at, 'initiatorname')));
  return errs;
}

function fcErrors(src: Source, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = list(src.targetWWNs), wwids = list(src.wwids);
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(child(at, 'targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length && wwids.length) errs.push(errorWithGoValue('FieldValueInvalid', child(at, 'targetWWNs'), wwns, goStringSlice(wwns.map(String)), 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length) {
    if (src.lun === undefined || src.lun === null) errs.push(required(child(at, 'lun'), 'lun is required if targetWWNs is specified'));
    else if (typeof src.lun === 'number' && (src.lun < 0 || src.lun > 255)) errs.push(invalid(child(at, 'lun'), src.lun, LUN_RANGE));
  }
  return errs;
}

/** A flexVolume's option keys in the API server's own namespaces are reserved (pod volumes and persistent volumes alike). */
export function flexVolumeOptionErrors(options: unknown, at: string): FieldError[] {
  const keys = options && typeof options === 'object' && !Array.isArray(options) ? Object.keys(options) : [];
  const errs: FieldError[] = [];
  for (const k of keys) {
    const namespace = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
    const normalized = '.' + namespace.toLowerCase();
    if (normalized.endsWith('.platform.io') || normalized.endsWith('.svc.io')) errs.push(invalid(key(child(at, 'options'), k), k, 'platform.io and svc.io namespaces are reserved'));
  }
  return errs;
}

function flexErrors(src: Source, at: string): FieldError[] {
  return [...requiredField(src, 'driver', at), ...flexVolumeOptionErrors(src.options, at)];
}

/** Kubernetes' ValidateCSIDriverName: a DNS subdomain of at most 63 characters. */
export function csiDriverNameErrors(name: string, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(at, ''));
  if (byteLength(name) > 63) errs.push(tooLong(at, name, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(at, name, msg));
  return errs;
}

function csiSecretRefErrors(ref: { name?: string; namespace?: string }, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(child(at, 'name'), ''));
  else for (const msg of isDNS1123Subdomain(ref.name)) errs.push(invalid(child(at, 'name'), ref.name, msg));
  if (!ref.namespace) errs.push(required(child(at, 'namespace'), ''));
  else for (const msg of isDNS1123Label(ref.namespace)) errs.push(invalid(child(at, 'namespace'), ref.namespace, msg));
  return errs;
}

function csiErrors(src: Source, at: string): FieldError[] {
  const errs = [...csiDriverNameErrors(str(src.driver), child(at, 'driver')), ...requiredField(src, 'volumeHandle', at)];
  for (const f of ['controllerPublishSecretRef', 'nodeStageSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    const ref = src[f] as { name?: string; namespace?: string } | null | undefined;
    if (ref) errs.push(...csiSecretRefErrors(ref, child(at, f)));
  }
  return errs;
}

function glusterfsErrors(src: Source, at: string): FieldError[] {
  const errs = [...requiredField(src, 'endpoints', at), ...requiredField(src, 'path', at)];
  const ns = src.endpointsNamespace;
  if (ns !== undefined && ns !== null) {
    if (!ns) errs.push(required(child(at, 'endpointsNamespace'), 'if the endpointnamespace is set, it must be a valid namespace name'));
    else for (const msg of nameIsDNSLabel(str(ns), false)) errs.push(invalid(child(at, 'endpointsNamespace'), ns, msg));
  }
  return errs;
}

function flockerErrors(src: Source, at: string): FieldError[] {
  const name = str(src.datasetName), uid = str(src.datasetUUID);
  if (!name && !uid) return [required(at, 'one of datasetName and datasetUUID is required')];
  if (name && uid) return [invalid(at, 'resource', 'datasetName and datasetUUID can not be specified simultaneously')];
  return name.includes('/') ? [invalid(child(at, 'datasetName'), name, "must not contain '/'")] : [];
}

function azureDiskErrors(src: Source, at: string): FieldError[] {
  const errs = [...requiredField(src, 'diskName', at), ...requiredField(src, 'diskURI', at)];
  const caching = ['None', 'ReadOnly', 'ReadWrite'], kinds = ['Dedicated', 'Managed', 'Shared'];
  if (src.cachingMode !== undefined && src.cachingMode !== null && !caching.includes(str(src.cachingMode))) errs.push(notSupported(child(at, 'cachingMode'), src.cachingMode, caching));
  if (src.kind !== undefined && src.kind !== null && !kinds.includes(str(src.kind))) errs.push(notSupported(child(at, 'kind'), src.kind, kinds));
  // Managed disks are named by resource ID, blob disks by URL.
  const uri = str(src.diskURI);
  if (src.kind === 'Managed' && !uri.startsWith('/subscriptions/')) errs.push(notSupported(child(at, 'diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  if (src.kind !== undefined && src.kind !== null && src.kind !== 'Managed' && !uri.startsWith('https://')) errs.push(notSupported(child(at, 'diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  return errs;
}

function secretNameErrors(src: Source, at: string): FieldError[] {
  const ref = src.secretRef;
  if (!ref) return [];
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(child(at, 'secretRef.name'), ''));
  if (!ref.namespace) errs.push(required(child(at, 'secretRef.namespace'), ''));
  return errs;
}

/** Validation of one source, by name. */
function sourceErrors(name: string, src: Source, pvName: string, at: string): FieldError[] {
  switch (name) {
    case 'hostPath': return hostPathErrors(src, at);
    case 'gcePersistentDisk': return [...requiredField(src, 'pdName', at), ...partitionErrors(src, at)];
    case 'awsElasticBlockStore': return [...requiredField(src, 'volumeID', at), ...partitionErrors(src, at)];
    case 'glusterfs': return glusterfsErrors(src, at);
    case 'flocker': return flockerErrors(src, at);
    case 'nfs': return nfsErrors(src, at);
    case 'rbd': return [...(list(src.monitors).length ? [] : [required(child(at, 'monitors'), '')]), ...requiredField(src, 'image', at)];
    case 'quobyte': return [...requiredField(src, 'registry', at), ...requiredField(src, 'volume', at)];
    case 'cephfs': return list(src.monitors).length ? [] : [required(child(at, 'monitors'), '')];
    case 'iscsi': return iscsiErrors(src, pvName, at);
    case 'cinder': return [...requiredField(src, 'volumeID', at), ...secretNameErrors(src, at)];
    case 'fc': return fcErrors(src, at);
    case 'flexVolume': return flexErrors(src, at);
    case 'azureFile': return [...requiredField(src, 'secretName', at), ...requiredField(src, 'shareName', at)];
    case 'vsphereVolume': return requiredField(src, 'volumePath', at);
    case 'photonPersistentDisk': return requiredField(src, 'pdID', at);
    case 'portworxVolume': return requiredField(src, 'volumeID', at);
    case 'azureDisk': return azureDiskErrors(src, at);
    case 'scaleIO': return [...requiredField(src, 'gateway', at), ...requiredField(src, 'system', at), ...requiredField(src, 'volumeName', at)];
    case 'local': return str(src.path) ? pathNoBackstepsErrors(str(src.path), child(at, 'path')) : [required(child(at, 'path'), '')];
    case 'storageos': return requiredField(src, 'volumeName', at);
    case 'csi': return csiErrors(src, at);
  }
  return [];
}

/** Kubernetes checks the sources in this order; the first one found is validated, any other is forbidden. */
const VALIDATION_ORDER = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi', 'cinder', 'fc',
  'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'local', 'storageos', 'csi',
] as const;

/** Exactly one source, valid; `local` needs node affinity. */
export function persistentVolumeSourceErrors(spec: Sources, pvName: string, path: string, hasNodeAffinity: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let found = 0;
  for (const name of VALIDATION_ORDER) {
    const src = spec[name];
    if (src === undefined || src === null) continue;
    const at = child(path, name);
    if (found > 0) { errs.push(forbidden(at, 'may not specify more than 1 volume type')); continue; }
    found++;
    errs.push(...sourceErrors(name, src, pvName, at));
    if (name === 'local' && !hasNodeAffinity) errs.push(required(child(path, 'nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (found === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}
