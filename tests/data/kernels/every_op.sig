# Every operator kind dlsim emits, at tiny sizes: the smoke test of dlsim-cpu-bench.
conv2d fp32 n4 c3 h16 w16 k8 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1
batch_norm fp32 n4 c8 hw256
layer_norm fp32 n4 c8 hw16
relu fp32 n4 e2048
conv2d fp32 n4 c8 h16 w16 k8 r3 s3 pad1,1,1,1 str1,1 dil1,1 g8 bias
add fp32 n4 e2048 x2
relu6 fp32 n4 e2048
maxpool fp32 n4 c8 h16 w16 r3 s3 pad0,0,0,0 str2,2 ceil
avgpool fp32 n4 c8 h8 w8 r3 s3 pad1,1,1,1 str1,1
concat fp32 n4 8x8x8 8x8x8
lrn fp32 n4 c16 hw64 size5
sigmoid fp32 n4 e1024
tanh fp32 n4 e1024
global_avgpool fp32 n4 c16 h8 w8 oh1 ow1
dropout fp32 n4 e16
linear fp32 n4 in16 out10 bias
softmax_cross_entropy fp32 n4 classes10
sgd fp32 p482 t4 max216
sgd_momentum fp32 p482 t4 max216
adam fp32 p482 t4 max216
hardswish fp32 n4 e1024
hardsigmoid fp32 n4 e64
mul fp32 n4 e1024 c16
channel_shuffle fp32 n4 c16 hw64 g2
